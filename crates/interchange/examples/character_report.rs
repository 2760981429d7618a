//! Prints what `marionette import` makes of character files: `cargo run -p
//! marionette-interchange --example character_report -- FILE...` (a development aid).
fn main() {
    for arg in std::env::args().skip(1) {
        let path = std::path::Path::new(&arg);
        match marionette_interchange::character::Character::open(path) {
            Ok(c) => {
                println!("== {arg}");
                for l in c.report() {
                    println!("{l}");
                }
                match c.import("x", "x.glb") {
                    Ok(i) => println!(
                        "skeleton: {} joints, {} DOFs, {} sites",
                        i.skeleton.joints().len(),
                        i.skeleton.dofs().len(),
                        i.skeleton.sites().len()
                    ),
                    Err(e) => println!("skeleton refused: {e}"),
                }
            }
            Err(e) => println!("== {arg}: {e}"),
        }
    }
}
