"""Captures read, retargeted and cleaned from Python equal the commands' output."""

import threading

import numpy as np
import pytest

import marionette as m
from conftest import CMU, HUMANOID, marionette


def test_a_missing_or_broken_capture_raises_file_error(tmp_path):
    with pytest.raises(m.FileError, match="nowhere.bvh"):
        m.read_capture(tmp_path / "nowhere.bvh")
    broken = tmp_path / "broken.bvh"
    broken.write_text("HIERARCHY\nROOT Hips\n{")
    with pytest.raises(m.FileError, match="broken.bvh"):
        m.read_capture(broken)
    with pytest.raises(m.LimitError, match="scale"):
        m.read_capture(CMU, scale=float("nan"))


def test_retarget_and_cleanup_of_01_01_equal_the_commands(tmp_path):
    retargeted_cmd = tmp_path / "cmd.marionette.ron"
    cleaned_cmd = tmp_path / "cmd-clean.marionette.ron"
    marionette("retarget", CMU, "--onto", HUMANOID, "--scale", "0.056", "--doc-out", retargeted_cmd)
    marionette(
        "cleanup", retargeted_cmd, "--sequence", "01_01", "--doc-out", cleaned_cmd
    )

    capture = m.read_capture(CMU, scale=0.056)
    assert capture.frames == 2752 and capture.scale == 0.056
    done = m.retarget(capture, m.Skeleton.load(HUMANOID))
    assert done.sequence == "01_01"
    assert ("hips", "Hips", "pelvis") in done.map or len(done.map) > 10
    ours = tmp_path / "py.marionette.ron"
    done.document.save(ours)
    assert ours.read_text() == retargeted_cmd.read_text()

    # The command cleans the document as its file holds it (degrees written to 12 significant
    # digits), so the script does too.
    reopened = m.Document.open(ours)
    report = m.cleanup(reopened, "01_01")
    assert report["sequence"] == "01_01" and report["contacts"]
    ours_clean = tmp_path / "py-clean.marionette.ron"
    reopened.save(ours_clean)
    assert ours_clean.read_text() == cleaned_cmd.read_text()


def test_bakes_run_in_parallel_threads_with_the_same_frames(crouch):
    doc = m.Document.open(crouch)
    results = [None, None]

    def bake(k):
        results[k] = doc.bake("crouch", threads=1)

    threads = [threading.Thread(target=bake, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert np.array_equal(results[0].joints_world, results[1].joints_world)


def test_a_capture_becomes_a_document_of_its_own(tmp_path):
    capture = m.read_capture(CMU, scale=0.056, every=4)
    doc = capture.to_document(tmp_path / "cmu.skeleton.ron")
    assert doc.sequences == ["01_01"]
    assert len(doc.keys("01_01")) == len(range(0, 2752, 4)) + (2751 % 4 != 0)
    written = m.Skeleton.load(tmp_path / "cmu.skeleton.ron")
    assert written.joint_names == capture.skeleton.joint_names
    # Its joints weigh de Leva's 75 kg (the capture as read gives each joint 1 kg).
    assert capture.skeleton.mass == pytest.approx(len(capture.skeleton.joint_names))
    assert written.mass == pytest.approx(75.0)
    doc.save(tmp_path / "cmu.marionette.ron")
    baked = m.Document.open(tmp_path / "cmu.marionette.ron").bake("01_01")
    assert len(baked.frames) == 2752
    with pytest.raises(m.FileError, match="nowhere"):
        capture.to_document(tmp_path / "nowhere" / "cmu.skeleton.ron")


def test_a_document_read_while_another_thread_cleans_it_does_not_deadlock():
    doc = m.retarget(m.read_capture(CMU, scale=0.056, every=4), m.Skeleton.load(HUMANOID)).document
    reports = []
    worker = threading.Thread(target=lambda: reports.append(m.cleanup(doc, "01_01")))
    worker.start()
    reads = 0
    while worker.is_alive() and reads < 100_000:
        assert doc.sequences == ["01_01"]
        reads += 1
    worker.join(timeout=300)
    assert not worker.is_alive() and reports[0]["contacts"]
