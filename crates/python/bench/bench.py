"""What calling Marionette from Python costs: a 7-DOF solve and a 2 752-frame bake, each timed
from Python and, in the same process and build, from Rust with nothing of Python in the loop
(`_solve_in_rust`, `_bake_in_rust`). Both sides alternate (each goes first in every other round), and
the medians are printed. Run it on a release wheel:

    python crates/python/bench/bench.py [--quick]

`--quick` (the test suite's smoke run) takes few repeats; its numbers mean nothing.
"""

import statistics
import sys
import time
from pathlib import Path

import marionette as m

REPO = Path(__file__).resolve().parents[3]
CMU = Path("/usr/share/assimp/models/BVH/01_01.bvh")


def solve_costs(rounds, repeats):
    arm = m.Skeleton.load(REPO / "skeletons" / "arm7.ron")
    # A reachable target: the fingertips where a pose within the limits puts them.
    posed = arm.rest_pose()
    values = iter([20.0, 30.0, -10.0, 60.0, 15.0, 30.0, -5.0])
    for joint in posed.keys():
        posed[joint] = [next(values) for _ in posed[joint]]
    target = arm.forward(posed).sites["fingertips"].tolist()
    start = arm.rest_pose()
    goals = [m.Position("fingertips", target)]
    first = m.solve(arm, start, goals, "dls")
    python, rust = [], []
    for k in range(rounds):
        if k % 2:
            rust.append(m._marionette._solve_in_rust(arm, start, goals, "dls", repeats))
        began = time.perf_counter()
        for _ in range(repeats):
            m.solve(arm, start, goals, "dls")
        python.append((time.perf_counter() - began) / repeats)
        if not k % 2:
            rust.append(m._marionette._solve_in_rust(arm, start, goals, "dls", repeats))
    return first, statistics.median(python), statistics.median(rust)


def threads_speedup(calls):
    """The same solves on one thread, then shared by two (the lock is released while each runs)."""
    import threading

    arm = m.Skeleton.load(REPO / "skeletons" / "arm7.ron")
    start = arm.rest_pose()
    goals = [m.Position("fingertips", [0.3, 0.5, 0.6])]  # out of reach: 200 updates each

    def work(n):
        for _ in range(n):
            m.solve(arm, start, goals, "dls")

    began = time.perf_counter()
    work(calls)
    one = time.perf_counter() - began
    threads = [threading.Thread(target=work, args=(calls // 2,)) for _ in range(2)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    two = time.perf_counter() - began
    return one, two


def bake_costs(rounds):
    capture = m.read_capture(CMU, scale=0.056)
    doc = m.retarget(capture, m.Skeleton.load(REPO / "skeletons" / "humanoid.ron"), clean_feet=True).document
    sequence = doc.sequences[-1]
    python, rust, world = [], [], []
    frames = 0
    for k in range(rounds):
        if k % 2:
            rust.append(m._marionette._bake_in_rust(doc, sequence, 1, 1))
        began = time.perf_counter()
        baked = doc.bake(sequence, threads=1)
        python.append(time.perf_counter() - began)
        frames = len(baked.frames)
        began = time.perf_counter()
        baked.joints_world
        world.append(time.perf_counter() - began)
        if not k % 2:
            rust.append(m._marionette._bake_in_rust(doc, sequence, 1, 1))
    handover = m._marionette._bake_handover_cost(doc, sequence, 5 if rounds == 1 else 50)
    return (
        handover,
        frames,
        len(doc.locks),
        statistics.median(python),
        statistics.median(rust),
        statistics.median(world),
    )


def main():
    quick = "--quick" in sys.argv
    solved, python, rust = solve_costs(3 if quick else 41, 20 if quick else 2000)
    print(
        f"7-DOF solve (arm7, dls, {solved.iterations} iterations): from Python "
        f"{python * 1e6:.2f} us, from Rust {rust * 1e6:.2f} us, "
        f"difference {(python - rust) * 1e6:+.2f} us a call"
    )
    one, two = threads_speedup(20 if quick else 2000)
    print(
        f"solves on two Python threads: {one * 1e3:.0f} ms on one thread, {two * 1e3:.0f} ms "
        f"shared by two ({one / two:.2f}x)"
    )
    if not CMU.exists():
        print(f"{CMU} missing: no bake timed")
        return
    handover, frames, locks, python, rust, world = bake_costs(1 if quick else 21)
    print(
        f"bake of CMU 01_01 on the humanoid ({frames} frames, {locks} locks, one thread): "
        f"from Python "
        f"{python * 1e3:.1f} ms, from Rust {rust * 1e3:.1f} ms, "
        f"{(python / rust - 1) * 100:+.1f} %; its world positions on their first read "
        f"{world * 1e3:.1f} ms more"
    )
    print(
        f"what the Python bake adds, timed alone (copy out of the document, values, arrays): "
        f"{handover * 1e3:.2f} ms, {handover / rust * 100:.2f} % of the bake from Rust"
    )


if __name__ == "__main__":
    main()
