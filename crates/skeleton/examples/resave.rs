//! Loads a skeleton file and prints it as Marionette saves it: `cargo run --example resave FILE`.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: resave SKELETON.ron");
        std::process::exit(2);
    };
    match marionette_skeleton::Skeleton::load(&path).map(|s| s.to_ron_string()) {
        Ok(Ok(text)) => print!("{text}"),
        Ok(Err(e)) => eprintln!("{path}: cannot serialise: {e}"),
        Err(e) => eprintln!("{e}"),
    }
}
