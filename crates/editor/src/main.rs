//! `marionette-editor [DOCUMENT]`: opens a window on a document (docs/file-formats.md), a new one on
//! the built-in humanoid or on `--skeleton FILE`, where dragging a body part poses the figure by
//! IK; `--replay SCRIPT.ron` plays a scripted session through the window's input path (for tests
//! and demonstrations).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy::winit::WinitSettings;
use clap::Parser;
use marionette_editing::{Document, Script};
use marionette_editor::replay::Replay;
use marionette_editor::resources::{Notices, OpenDocument, Paths};
use marionette_editor::{EditorCorePlugin, EditorWindowPlugins};

/// Marionette's figure editor.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Open this document (RON, docs/file-formats.md: skeleton, pose, locks, sequences), or
    /// import this rigged glTF character (.glb, .gltf, .vrm) as a new one.
    #[arg(value_name = "DOCUMENT", conflicts_with = "skeleton")]
    document: Option<PathBuf>,
    /// Start a new document on this skeleton (RON, docs/skeleton-format.md, or a rigged glTF
    /// character) instead of the built-in humanoid.
    #[arg(long, value_name = "FILE")]
    skeleton: Option<PathBuf>,
    /// Where meshes named by the skeleton are read from (default: `assets/` beside the
    /// skeleton's folder, else `./assets`).
    #[arg(long, value_name = "DIR")]
    assets: Option<PathBuf>,
    /// Play this script (`Replay([...])`) through the window, then stay open unless it exits.
    #[arg(long, value_name = "SCRIPT.ron")]
    replay: Option<PathBuf>,
    /// Log, once a second, the frame time and what each render pass costs on the GPU (or the
    /// software renderer): time, primitives and shader invocations, as Bevy's render
    /// diagnostics measure them.
    #[arg(long)]
    render_profile: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut startup_error = None;
    // The document (or else the skeleton) named, opened by what it holds: a document, a
    // skeleton (a new document on it), a character or a capture (imported as a new document).
    let named = args
        .document
        .as_ref()
        .map(|p| (p, "document"))
        .or(args.skeleton.as_ref().map(|p| (p, "skeleton")));
    let document = match named.map(|(path, what)| (open_named(path), what)) {
        None => Document::new(marionette_skeleton::builtin::humanoid(), None).standing(),
        Some((Ok(document), _)) => document,
        Some((Err(e), _)) if args.replay.is_some() => {
            eprintln!("marionette-editor: {e}");
            return ExitCode::from(2);
        }
        Some((Err(e), what)) => {
            // A person started the editor: open the humanoid and show why.
            startup_error = Some(format!("Could not open the {what}: {e}"));
            Document::new(marionette_skeleton::builtin::humanoid(), None).standing()
        }
    };
    let replay = match &args.replay {
        Some(path) => {
            let script = Script::load(path).and_then(|script| {
                script
                    .check_sites(document.skeleton(), &path.display().to_string())
                    .map(|()| script)
            });
            match script {
                Ok(script) => Some(Replay::new(script, path.clone())),
                Err(e) => {
                    eprintln!("marionette-editor: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        None => None,
    };
    let title = format!("Marionette — {}", document.skeleton().name());
    let assets = assets_dir(args.assets.as_deref(), args.skeleton.as_deref());
    let mut app = App::new();
    // The document first: the editor's plugin opens a new one only when none is given.
    app.insert_resource(OpenDocument::new(document));
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title,
                    resolution: WindowResolution::new(1280, 800),
                    ..default()
                }),
                // Closing asks first when the pose is unsaved (quit.rs).
                close_when_requested: false,
                ..default()
            })
            .set(AssetPlugin {
                file_path: assets.clone(),
                // A character's own file is read from wherever the user keeps it, by an explicit
                // override of that one load (scene/character.rs).
                unapproved_path_mode: bevy::asset::UnapprovedPathMode::Deny,
                ..default()
            }),
    )
    .add_plugins((
        bevy_egui::EguiPlugin::default(),
        MeshPickingPlugin,
        EditorCorePlugin,
        EditorWindowPlugins,
    ));
    if args.render_profile {
        app.add_plugins((
            bevy::render::diagnostic::RenderDiagnosticsPlugin,
            bevy::diagnostic::LogDiagnosticsPlugin::default(),
            bevy::diagnostic::FrameTimeDiagnosticsPlugin::default(),
        ));
    }
    app.world_mut().resource_mut::<Paths>().assets = Some(assets.into());
    if let Some(replay) = replay {
        // Scripted input does not wake a reactive event loop: run continuously.
        app.insert_resource(WinitSettings::continuous())
            .insert_resource(replay);
    } else {
        app.insert_resource(WinitSettings::desktop_app());
    }
    if let Some(error) = startup_error {
        app.world_mut().resource_mut::<Notices>().error(error);
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// The `assets/` directory meshes are read from (docs/skeleton-format.md: mesh paths are relative
/// to it), as an absolute path: `--assets`, else `assets/` beside the skeleton's folder
/// (`project/skeletons/x.ron` → `project/assets`), else `./assets`, else the repository's.
fn assets_dir(given: Option<&Path>, skeleton: Option<&Path>) -> String {
    let candidates = [
        given.map(Path::to_path_buf),
        marionette_skeleton::assets_folder(skeleton),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets")),
    ];
    let chosen = candidates
        .into_iter()
        .flatten()
        .find(|dir| dir.is_dir())
        .unwrap_or_else(|| PathBuf::from("assets"));
    let absolute = std::fs::canonicalize(&chosen)
        .or_else(|_| std::env::current_dir().map(|here| here.join(&chosen)))
        .unwrap_or(chosen);
    absolute.to_string_lossy().into_owned()
}

/// The document a file named at start-up makes, by what it holds (read once).
fn open_named(path: &std::path::Path) -> Result<Document, String> {
    use marionette_editing::exchange::OpenedWork;
    match Document::open_work(path) {
        Ok(OpenedWork::Document(document)) => Ok(document),
        Ok(OpenedWork::Skeleton(document)) => Ok(document.standing()),
        Ok(OpenedWork::Character(imported, _)) => Ok(imported.document),
        Ok(OpenedWork::Capture(imported)) => Ok(imported.document),
        Ok(OpenedWork::Pose(_)) => Err(format!(
            "{}: a pose file, not a document, skeleton, character or capture",
            path.display()
        )),
        Err(e) => Err(e.to_string()),
    }
}
