//! The fuzzer as a test: every input that once made a reader fail (kept in
//! `crates/fuzz/regressions/READER/`) is now read or refused with a message, and a short run of
//! fresh inputs per reader finds no panic and no silent refusal. The long run is the binary
//! (`cargo run --release -p marionette-fuzz -- --inputs 1000000`).

use marionette_fuzz::{Outcome, Reader, input, prepare_work_folder, repository, run_input};

fn work_folder(reader: Reader) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix(&format!("marionette-fuzz-{}", reader.name()))
        .tempdir()
        .expect("a temporary folder");
    prepare_work_folder(&repository(), dir.path()).expect("the work folder");
    dir
}

/// The inputs kept in `crates/fuzz/regressions/READER/`, by reader: the test fails if one goes
/// missing (a folder renamed or emptied would otherwise pass by reading nothing).
const KEPT: [(&str, &[&str]); 3] = [
    ("gltf", &["hang-16712.bin", "hang-99530.bin"]),
    (
        "document",
        &[
            "abort-14295-seed-777.bin",
            "hang-30117-seed-1.bin",
            "panic-1407-seed-1.bin",
            "slow-24225-seed-1.bin",
        ],
    ),
    (
        "bvh",
        &["panic-1870-seed-777.bin", "panic-19106-seed-1.bin"],
    ),
];

#[test]
fn every_input_that_once_failed_is_now_read_or_refused_with_a_message_in_time() {
    let folder = repository().join("crates/fuzz/regressions");
    let mut found: Vec<(String, String)> = Vec::new();
    for reader in std::fs::read_dir(&folder).expect("crates/fuzz/regressions") {
        let reader = reader.expect("an entry").path();
        for input in std::fs::read_dir(&reader).expect("a reader's folder") {
            let name = input.expect("an entry").file_name();
            found.push((
                reader
                    .file_name()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned(),
                name.to_string_lossy().into_owned(),
            ));
        }
    }
    found.sort();
    let mut kept: Vec<(String, String)> = KEPT
        .iter()
        .flat_map(|(r, inputs)| inputs.iter().map(|i| ((*r).to_owned(), (*i).to_owned())))
        .collect();
    kept.sort();
    assert_eq!(found, kept, "the kept inputs are the ones listed in KEPT");
    for (name, input) in &kept {
        let reader = Reader::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .expect("a reader of that name");
        let work = work_folder(reader);
        let path = folder.join(name).join(input);
        let bytes = std::fs::read(&path).expect("the input");
        let (outcome, took) = run_input(reader, &bytes, work.path());
        assert!(!outcome.is_failure(), "{}: {outcome:?}", path.display());
        // The fuzzer's own limit, with room for a debug build on a slow machine.
        assert!(
            took < marionette_fuzz::TIME_LIMIT * 10,
            "{}: {took:?}",
            path.display()
        );
        println!("{}: {outcome:?} in {took:?}", path.display());
    }
}

#[test]
fn a_short_run_of_every_reader_finds_no_failure() {
    for reader in Reader::ALL {
        let seeds = reader.seeds(&repository()).expect("the seeds");
        assert!(!seeds.is_empty(), "{} has no seeds", reader.name());
        let work = work_folder(reader);
        // The seeds themselves are read.
        for seed in &seeds {
            let (outcome, _) = run_input(reader, seed, work.path());
            assert_eq!(
                outcome,
                Outcome::Read,
                "{}: a seed is refused",
                reader.name()
            );
        }
        let (mut read, mut refused) = (0, 0);
        for index in 0..300 {
            let bytes = input(&seeds, 0xC1, index);
            match run_input(reader, &bytes, work.path()).0 {
                Outcome::Read => read += 1,
                Outcome::Refused(_) => refused += 1,
                failure => panic!("{} input {index}: {failure:?}", reader.name()),
            }
        }
        assert!(
            refused > 0 && read + refused == 300,
            "{read} read, {refused} refused"
        );
    }
}
