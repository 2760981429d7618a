//! Why a glTF file could not be read, and how many nodes one may have.

/// The most nodes a file may have.
pub const MAX_NODES: usize = 100_000;

/// Why a glTF file could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GltfError {
    /// The file could not be read.
    #[error("{file}: {why}")]
    Io {
        /// The file.
        file: String,
        /// The system's reason.
        why: String,
    },
    /// Not glTF at all, or broken JSON or GLB framing.
    #[error("{file}: not a glTF 2.0 file: {why}")]
    NotGltf {
        /// The file.
        file: String,
        /// What is wrong.
        why: String,
    },
    /// A buffer is missing, unreadable or shorter than it says.
    #[error("{file}: buffer {buffer}: {why}")]
    Buffer {
        /// The file.
        file: String,
        /// The buffer's index.
        buffer: usize,
        /// What is wrong.
        why: String,
    },
    /// An accessor (or its buffer view) does not fit its data, or has a type that is not expected.
    #[error("{file}: accessor {accessor}: {why}")]
    Accessor {
        /// The file.
        file: String,
        /// The accessor's index.
        accessor: usize,
        /// What is wrong.
        why: String,
    },
    /// A node is malformed (a bad transform, a child that does not exist, a cycle).
    #[error("{file}: node {node}: {why}")]
    Node {
        /// The file.
        file: String,
        /// The node: its index and name.
        node: String,
        /// What is wrong.
        why: String,
    },
}
