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

#[test]
fn every_input_that_once_failed_is_now_read_or_refused_with_a_message() {
    let mut checked = 0;
    for reader in Reader::ALL {
        let folder = repository()
            .join("crates/fuzz/regressions")
            .join(reader.name());
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        let work = work_folder(reader);
        for entry in entries {
            let path = entry.expect("an entry").path();
            let bytes = std::fs::read(&path).expect("the input");
            let (outcome, _) = run_input(reader, &bytes, work.path());
            assert!(!outcome.is_failure(), "{}: {outcome:?}", path.display());
            checked += 1;
        }
    }
    println!("{checked} kept inputs read again");
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
