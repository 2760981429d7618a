//! `marionette-fuzz`: runs the mutation fuzzer (see the library's documentation) and prints, per
//! reader, how many inputs were read, refused, and failed (panics, aborts, hangs, inputs slower
//! than a second), keeping each failing input in the output folder.
//!
//! ```text
//! cargo run --profile fuzz -p marionette-fuzz -- --inputs 1000000 --seed 1 --seed 777
//! cargo run --profile fuzz -p marionette-fuzz -- --reader gltf --inputs 20000
//! ```
//!
//! The `fuzz` profile is `release` with overflow checks and debug assertions on, so that
//! arithmetic on a file's numbers that overflows is a finding (a release build wraps silently).

use std::io::{BufRead, BufReader};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use marionette_fuzz::{Outcome, Reader, TIME_LIMIT, input, prepare_work_folder, run_input};

/// The mutation fuzzer of Marionette's file readers.
#[derive(Parser, Debug)]
#[command(
    after_help = "Examples:\n  marionette-fuzz --inputs 1000000 --seed 1 --seed 777 --out target/fuzz\n  \
    marionette-fuzz --reader gltf --reader bvh --inputs 20000"
)]
struct Args {
    /// Inputs per reader.
    #[arg(long, default_value_t = 10_000)]
    inputs: u64,
    /// The readers to fuzz (default: all).
    #[arg(long, value_enum)]
    reader: Vec<Reader>,
    /// The run's seeds: the same seed gives the same inputs; each seed is a run of `--inputs`
    /// inputs per reader.
    #[arg(long, default_values_t = [1])]
    seed: Vec<u64>,
    /// Where failing inputs and the summary are written.
    #[arg(long, default_value = "target/fuzz")]
    out: PathBuf,
    /// Readers fuzzed at once, each in its own worker process.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    /// The address space a worker may use, in MiB (a larger allocation fails and is a finding).
    #[arg(long, default_value_t = 4096)]
    memory_mib: u64,
    /// Internal: run as a worker from this input index.
    #[arg(long, hide = true)]
    worker_from: Option<u64>,
}

/// A worker's line of counts: every thousand inputs, and at the end.
const TALLY: &str = "tally";

fn main() -> ExitCode {
    let args = Args::parse();
    let readers = if args.reader.is_empty() {
        Reader::ALL.to_vec()
    } else {
        args.reader.clone()
    };
    if let Some(from) = args.worker_from {
        return worker(&args, readers[0], args.seed[0], from);
    }
    match drive(&args, &readers) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(3),
        Err(e) => {
            eprintln!("marionette-fuzz: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Counts of one reader's run.
#[derive(Debug, Default, Clone)]
struct Tally {
    inputs: u64,
    read: u64,
    refused: u64,
    panics: u64,
    silent: u64,
    aborts: u64,
    hangs: u64,
    slow: u64,
    /// Inputs a worker passed (read or refused) after its last count, before it died.
    unsorted: u64,
    slowest_ms: f64,
    total_secs: f64,
}

impl Tally {
    fn failures(&self) -> u64 {
        self.panics + self.silent + self.aborts + self.hangs + self.slow
    }
}

/// Runs every reader in worker processes, `jobs` at a time, and prints the results.
fn drive(args: &Args, readers: &[Reader]) -> Result<bool, String> {
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mut results: Vec<(Reader, u64, Tally)> = Vec::new();
    let runs: Vec<(u64, Reader)> = args
        .seed
        .iter()
        .flat_map(|&seed| readers.iter().map(move |&r| (seed, r)))
        .collect();
    for batch in runs.chunks(args.jobs.max(1)) {
        let handles: Vec<_> = batch
            .iter()
            .map(|&(seed, reader)| {
                let args_out = args.out.join(format!("seed-{seed}"));
                let (inputs, memory) = (args.inputs, args.memory_mib);
                std::thread::spawn(move || {
                    let tally = fuzz_reader(reader, inputs, seed, memory, &args_out);
                    (reader, seed, tally)
                })
            })
            .collect();
        for h in handles {
            let (reader, seed, tally) = h.join().map_err(|_| "a driver thread panicked")?;
            results.push((reader, seed, tally?));
        }
    }
    println!(
        "{:<9} {:>5} {:>9} {:>9} {:>9} {:>8} {:>7} {:>7} {:>7} {:>6} {:>6} {:>9} {:>8}",
        "reader",
        "seed",
        "inputs",
        "read",
        "refused",
        "unsorted",
        "panics",
        "silent",
        "aborts",
        "hangs",
        "slow",
        "max ms",
        "µs/input"
    );
    let mut summary = Vec::new();
    for (reader, seed, t) in &results {
        println!(
            "{:<9} {:>5} {:>9} {:>9} {:>9} {:>8} {:>7} {:>7} {:>7} {:>6} {:>6} {:>9.1} {:>8.0}",
            reader.name(),
            seed,
            t.inputs,
            t.read,
            t.refused,
            t.unsorted,
            t.panics,
            t.silent,
            t.aborts,
            t.hangs,
            t.slow,
            t.slowest_ms,
            t.total_secs * 1e6 / t.inputs.max(1) as f64
        );
        summary.push(serde_json::json!({
            "reader": reader.name(), "seed": seed, "inputs": t.inputs, "read": t.read, "refused": t.refused, "unsorted": t.unsorted,
            "panics": t.panics, "silent": t.silent, "aborts": t.aborts, "hangs": t.hangs,
            "slow": t.slow, "slowest_ms": t.slowest_ms, "seconds": t.total_secs,
        }));
    }
    let file = args.out.join("summary.json");
    std::fs::write(&file, serde_json::Value::Array(summary).to_string() + "\n")
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let failures: u64 = results.iter().map(|(_, _, t)| t.failures()).sum();
    if failures > 0 {
        println!("{failures} failing inputs kept in {}", args.out.display());
    }
    Ok(failures == 0)
}

/// Fuzzes one reader with workers, restarting one after an abort or a hang.
fn fuzz_reader(
    reader: Reader,
    inputs: u64,
    seed: u64,
    memory_mib: u64,
    out: &Path,
) -> Result<Tally, String> {
    let dir = out.join(reader.name());
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let seeds = reader.seeds(&marionette_fuzz::repository())?;
    let progress = dir.join("progress");
    let mut tally = Tally {
        inputs,
        ..Tally::default()
    };
    let began = Instant::now();
    let mut from = 0;
    while from < inputs {
        std::fs::write(&progress, from.to_le_bytes()).map_err(|e| e.to_string())?;
        let mut child = spawn_worker(reader, from, inputs, seed, memory_mib, out)?;
        let stdout = child.stdout.take().ok_or("no worker output")?;
        let lines = std::thread::spawn(move || {
            BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .collect::<Vec<String>>()
        });
        let hung = watch(&mut child, &progress)?;
        // A worker that died or was killed leaves its work folder behind.
        let _ = std::fs::remove_dir_all(work_folder(&dir, child.id(), reader));
        let lines = lines.join().map_err(|_| "a reader thread panicked")?;
        let mut counted = from;
        let mut last = None;
        for line in &lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            if let [TALLY, upto, read, refused, panics, silent, slow, slowest] = words.as_slice() {
                let n = |w: &str| w.parse::<u64>().unwrap_or(0);
                counted = n(upto);
                last = Some([n(read), n(refused), n(panics), n(silent), n(slow)]);
                tally.slowest_ms = tally.slowest_ms.max(slowest.parse().unwrap_or(0.0));
            }
        }
        if let Some([read, refused, panics, silent, slow]) = last {
            tally.read += read;
            tally.refused += refused;
            tally.panics += panics;
            tally.silent += silent;
            tally.slow += slow;
        }
        if counted >= inputs {
            break;
        }
        // The worker died (an abort) or was killed (a hang) at the input it last announced.
        let at = read_progress(&progress)?;
        let kind = if hung { "hang" } else { "abort" };
        if hung {
            tally.hangs += 1;
        } else {
            tally.aborts += 1;
        }
        let bytes = input(&seeds, seed, at);
        let file = dir.join(format!("{kind}-{at}.bin"));
        std::fs::write(&file, &bytes).map_err(|e| format!("{}: {e}", file.display()))?;
        eprintln!(
            "{}: input {at}: {kind}, kept as {}",
            reader.name(),
            file.display()
        );
        tally.unsorted += at.saturating_sub(counted);
        from = at + 1;
    }
    tally.total_secs = began.elapsed().as_secs_f64();
    Ok(tally)
}

/// Waits for the worker; kills it when its progress stands still for ten time limits. Returns
/// whether it was killed.
fn watch(child: &mut Child, progress: &Path) -> Result<bool, String> {
    let mut last = read_progress(progress)?;
    let mut since = Instant::now();
    loop {
        if child.try_wait().map_err(|e| e.to_string())?.is_some() {
            return Ok(false);
        }
        std::thread::sleep(Duration::from_millis(200));
        let now = read_progress(progress)?;
        if now != last {
            last = now;
            since = Instant::now();
        } else if since.elapsed() > TIME_LIMIT * 10 {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(true);
        }
    }
}

fn read_progress(progress: &Path) -> Result<u64, String> {
    let bytes = std::fs::read(progress).map_err(|e| format!("{}: {e}", progress.display()))?;
    Ok(bytes
        .get(..8)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u64::from_le_bytes))
}

/// Starts a worker for `reader` from input `from`, its address space bounded with `prlimit`
/// where the machine has it.
fn spawn_worker(
    reader: Reader,
    from: u64,
    inputs: u64,
    seed: u64,
    memory_mib: u64,
    out: &Path,
) -> Result<Child, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let has_prlimit = Command::new("prlimit")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let mut command = if has_prlimit {
        let mut c = Command::new("prlimit");
        c.arg(format!("--as={}", memory_mib * 1024 * 1024))
            .arg("--")
            .arg(exe);
        c
    } else {
        Command::new(exe)
    };
    command
        .args(["--reader", reader.name()])
        .args(["--worker-from", &from.to_string()])
        .args(["--inputs", &inputs.to_string()])
        .args(["--seed", &seed.to_string()])
        .arg("--out")
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start a worker: {e}"))
}

/// The folder worker `pid` reads its inputs in: in memory where the machine has it, so the
/// inputs' writes do not wait on a disk.
fn work_folder(dir: &Path, pid: u32, reader: Reader) -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        shm.join(format!("marionette-fuzz-{pid}-{}", reader.name()))
    } else {
        dir.join(format!("work-{pid}"))
    }
}

/// Reads inputs `from..inputs`, announcing each index in the progress file before it is read,
/// keeping panicking, silent and slow inputs, and printing the counts so far every thousand
/// inputs and at the end.
fn worker(args: &Args, reader: Reader, seed: u64, from: u64) -> ExitCode {
    std::panic::set_hook(Box::new(|_| {}));
    let dir = args.out.join(reader.name());
    let work = work_folder(&dir, std::process::id(), reader);
    let repo = marionette_fuzz::repository();
    let (seeds, progress) = match (
        reader.seeds(&repo),
        prepare_work_folder(&repo, &work).and_then(|()| {
            std::fs::OpenOptions::new()
                .write(true)
                .open(dir.join("progress"))
                .map_err(|e| e.to_string())
        }),
    ) {
        (Ok(s), Ok(p)) => (s, p),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("marionette-fuzz: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (mut read, mut refused, mut panics, mut silent, mut slow) = (0, 0, 0, 0, 0);
    let mut slowest = Duration::ZERO;
    for index in from..args.inputs {
        if progress.write_all_at(&index.to_le_bytes(), 0).is_err() {
            return ExitCode::FAILURE;
        }
        let bytes = input(&seeds, seed, index);
        let (outcome, took) = run_input(reader, &bytes, &work);
        slowest = slowest.max(took);
        let keep = |kind: &str, note: &str| {
            let _ = std::fs::write(dir.join(format!("{kind}-{index}.bin")), &bytes);
            let _ = std::fs::write(dir.join(format!("{kind}-{index}.txt")), note);
        };
        match &outcome {
            Outcome::Read => read += 1,
            Outcome::Refused(_) => refused += 1,
            Outcome::Panicked(message) => {
                panics += 1;
                keep("panic", message);
            }
            Outcome::Silent => {
                silent += 1;
                keep("silent", "refused with an empty message");
            }
        }
        if took > TIME_LIMIT {
            slow += 1;
            keep("slow", &format!("{:.0} ms", took.as_secs_f64() * 1e3));
        }
        let upto = index + 1;
        if upto % 1000 == 0 || upto == args.inputs {
            println!(
                "{TALLY} {upto} {read} {refused} {panics} {silent} {slow} {:.1}",
                slowest.as_secs_f64() * 1e3
            );
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    ExitCode::SUCCESS
}
