//! The package's exceptions: `marionette.Error`, and below it `FileError` (a file missing,
//! unreadable or malformed) and `LimitError` (a value outside a joint's limits or the documented
//! limits). Each carries the message the `marionette` command prints for the same fault.

use pyo3::PyErr;
use pyo3::create_exception;
use pyo3::exceptions::PyException;

create_exception!(
    marionette,
    Error,
    PyException,
    "Anything Marionette refuses: an unknown joint, site, figure or sequence, an edit that does \
     not apply. The message names what is at fault."
);
create_exception!(
    marionette,
    FileError,
    Error,
    "A file that is missing, unreadable or malformed; the message names the file."
);
create_exception!(
    marionette,
    LimitError,
    Error,
    "A value outside a joint's limits or the documented limits (NaN and infinities included); \
     the message names the joint, goal or setting."
);

/// `marionette.Error` with `message`.
pub fn error(message: impl Into<String>) -> PyErr {
    Error::new_err(message.into())
}

/// `marionette.FileError` with `message`.
pub fn file_error(message: impl Into<String>) -> PyErr {
    FileError::new_err(message.into())
}

/// `marionette.LimitError` with `message`.
pub fn limit_error(message: impl Into<String>) -> PyErr {
    LimitError::new_err(message.into())
}

/// A finite number, or a `LimitError` naming `what`.
pub fn finite(value: f64, what: &str) -> Result<f64, PyErr> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(limit_error(format!(
            "{what}: {value} is not a finite number"
        )))
    }
}
