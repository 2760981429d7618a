//! The figure in the 3D scene ([`figure`]): one entity per joint frame placed by forward
//! kinematics, its body (capsule, box, sphere or glTF mesh from the skeleton file) as a pickable
//! child, small pickable handles on the sites, joint markers, lights, a ground and the
//! comparison ghosts ([`ghosts`]). Presses and hovers on bodies and handles come from Bevy's
//! picking ([`picking`]); glTF bodies keep their own materials, tinted for hover and selection
//! ([`gltf_tint`]); the rest of the stage (other figures, props) in [`stage`]. Everything here follows the state in `PostUpdate`; nothing here edits.

pub mod character;
pub mod figure;
pub mod figure_material;
pub mod ghosts;
pub mod gltf_tint;
mod one_thread;
mod parts;
pub mod picking;
pub mod stage;

use bevy::light::GlobalAmbientLight;
use bevy::prelude::*;

use figure_material::FigureMaterial;

use crate::EditorSet;
use crate::resources::Notices;
pub use parts::{
    Body, FigurePart, GhostMeshBody, Ground, JointFrame, Palette, SITE_HANDLE_SIZE, SiteHandle,
};

/// Draws the figure and routes picking to the drag.
pub struct ScenePlugin;

impl Plugin for ScenePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(GlobalAmbientLight {
            color: Color::WHITE,
            brightness: 350.0,
            ..default()
        })
        .insert_resource(ClearColor(Color::srgb(0.16, 0.17, 0.19)))
        .add_systems(
            Startup,
            (setup_palette, setup_lights, stage::setup_stage_palette)
                .chain()
                .in_set(EditorSet::Setup),
        )
        .add_systems(
            Update,
            economise_on_software_renderer.in_set(EditorSet::Settle),
        )
        .add_systems(
            PostUpdate,
            (
                figure::rebuild_figure,
                figure::place_figure,
                figure::place_ground,
                ghosts::sync_ghosts,
                figure::highlight,
                stage::rebuild_stage,
                stage::poses::pose_stage,
                stage::poses::place_stage,
                stage::characters::spawn_other_characters,
                stage::characters::unpickable_other_skins,
                stage::characters::pose_other_characters,
            )
                .chain()
                .in_set(EditorSet::Scene),
        )
        .add_systems(
            PreUpdate,
            picking::update_hover
                .after(bevy::picking::PickingSystems::Hover)
                .in_set(EditorSet::Hover),
        )
        .add_observer(picking::on_press)
        .add_observer(stage::on_press_other_figure)
        .add_systems(
            Update,
            (
                stage::characters::press_other_characters,
                stage::grip_after_select,
            )
                .chain()
                .in_set(EditorSet::Pick),
        )
        .init_resource::<stage::characters::OtherCharacters>()
        .init_resource::<stage::poses::StagePoses>()
        .init_resource::<stage::StageWork>()
        .add_systems(Update, stage::track_stage_work.in_set(EditorSet::Derive))
        .add_plugins((gltf_tint::TintPlugin, figure_material::FigureMaterialPlugin));
        character::add_systems(app);
        one_thread::add_systems(app);
    }
}

fn setup_palette(
    mut commands: Commands,
    mut figure: ResMut<Assets<FigureMaterial>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let body = figure.add(FigureMaterial::matte(Color::srgb(0.78, 0.755, 0.715)));
    let hovered = figure.add(FigureMaterial::matte(Color::srgb(0.95, 0.85, 0.55)));
    let selected = figure.add(FigureMaterial::matte(Color::srgb(1.0, 0.62, 0.2)));
    let site = figure.add(FigureMaterial::glowing(
        Color::srgb(0.2, 0.75, 1.0),
        LinearRgba::rgb(0.1, 0.4, 0.8),
    ));
    let joint = figure.add(FigureMaterial::flat(Color::srgb(0.26, 0.26, 0.31)));
    let ghosts = crate::drag::ghosts::GHOST_COLOURS
        .iter()
        .map(|&colour| {
            materials.add(StandardMaterial {
                base_color: colour,
                alpha_mode: AlphaMode::Blend,
                unlit: true,
                ..default()
            })
        })
        .collect();
    commands.insert_resource(Palette {
        body,
        hovered,
        selected,
        site,
        joint,
        ghosts,
    });
}

/// The lights glTF characters and the ghosts are lit by; the figure's own material is lit from
/// the same places ([`figure_material`]).
fn setup_lights(mut commands: Commands) {
    commands.spawn((
        DirectionalLight {
            illuminance: 9000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_translation(figure_material::KEY_LIGHT_FROM)
            .looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 2500.0,
            ..default()
        },
        Transform::from_translation(figure_material::FILL_LIGHT_FROM)
            .looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// On a software renderer (Mesa's llvmpipe and the like: no GPU) every pixel shaded costs:
/// anti-aliasing and shadow maps are turned off there and the views drawn at half resolution
/// (the status bar says so and turns it off), once, and the user is told.
fn economise_on_software_renderer(
    mut commands: Commands,
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    cameras: Query<Entity, With<Camera3d>>,
    mut lights: Query<&mut DirectionalLight>,
    mut resolution: ResMut<crate::views::target::ViewResolution>,
    mut notices: ResMut<Notices>,
    mut done: Local<bool>,
) {
    let Some(adapter) = adapter.filter(|_| !*done) else {
        return;
    };
    if cameras.is_empty() {
        return;
    }
    *done = true;
    if !one_thread::is_software(&adapter) {
        return;
    }
    for camera in &cameras {
        commands
            .entity(camera)
            .insert(bevy::render::view::Msaa::Off);
    }
    for mut light in &mut lights {
        light.shadow_maps_enabled = false;
    }
    resolution.reduced = true;
    notices.info(format!(
        "Software renderer ({}): anti-aliasing and shadows are off, the 3D views at half \
         resolution",
        adapter.name
    ));
}
