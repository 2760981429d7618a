//! Shared output helpers: JSON points and aligned text tables.

use nalgebra::Vector3;

pub use marionette_motion::frames_file::{point_json as json_point, sites_json};

/// One text row: a name padded to `width`, then x, y, z with 6 decimals.
pub fn text_row(name: &str, width: usize, p: &Vector3<f64>) -> String {
    format!("{name:<width$}  {:>10.6} {:>10.6} {:>10.6}", p.x, p.y, p.z)
}

/// Writes text to standard output. A closed pipe (`marionette fk ... | head`) ends the process
/// quietly with status 0, as Unix tools do, instead of the panic `println!` would raise.
pub fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("marionette: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// `println!` through [`emit`].
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::output::emit(&format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use outln;
