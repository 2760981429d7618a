//! A rigged character imported the way every front end imports it ([`import_weighed`]): as
//! [`import_of`] reads it, then its joints weighed by de Leva's segments by humanoid role
//! ([`weigh_by_roles`], 75 kg, male), so that its own masses (what `marionette fk`'s centre of
//! mass and the centre-of-mass lock weigh) are the physics assistant's, not its capsules'
//! (about 75 % of the mass in the legs). A figure with no roles keeps its capsules' masses.
//! A capture made a document ([`weigh_capture`]) is weighed the same way, instead of the
//! kilogram a joint its reader gives it.

use std::path::Path;

use marionette_interchange::capture::Capture;
use marionette_interchange::character::{Character, CharacterError, CharacterImport, import_of};
use marionette_physics::MassSettings;
use marionette_physics::weigh::weigh_by_roles;
use marionette_skeleton::Skeleton;
use marionette_skeleton::format::SkeletonFile;

/// What the import says of its masses, for its report.
pub const WEIGHED: &str = "masses: de Leva's segments by humanoid role (75 kg, male)";
/// What the import says of a figure it could not weigh by roles.
pub const NOT_WEIGHED: &str = "masses: each bone's capsule (no humanoid roles)";
/// What a capture's import says of a skeleton it could not weigh by roles.
pub const CAPTURE_NOT_WEIGHED: &str = "masses: 1 kg a joint (no humanoid roles)";

/// `character` read from `path` and imported for `skeleton_out` ([`import_of`]), its joints
/// weighed by de Leva's segments when it has humanoid roles; with the line its report adds.
pub fn import_weighed(
    character: Character,
    path: &Path,
    skeleton_out: &Path,
) -> Result<(CharacterImport, &'static str), CharacterError> {
    let mut import = import_of(character, path, skeleton_out)?;
    let imported = &mut import.imported;
    let name = skeleton_out.display().to_string();
    let said = weigh(&mut imported.skeleton_file, &mut imported.skeleton, &name);
    Ok((import, if said { WEIGHED } else { NOT_WEIGHED }))
}

/// A capture's skeleton (`capture.imported`, its take unchanged) weighed by de Leva's segments
/// when it has humanoid roles, for a document made from it; with the line a report adds. Its
/// skeleton file, written beside the document, then carries the masses.
pub fn weigh_capture(capture: &mut Capture) -> &'static str {
    let imported = &mut capture.imported;
    if weigh(
        &mut imported.skeleton_file,
        &mut imported.skeleton,
        &capture.name,
    ) {
        WEIGHED
    } else {
        CAPTURE_NOT_WEIGHED
    }
}

/// `skeleton` and its `file` weighed by roles where it has them (`name` names the skeleton
/// in its own messages); whether it had them (else both are left as they were).
fn weigh(file: &mut SkeletonFile, skeleton: &mut Skeleton, name: &str) -> bool {
    let Some(weighed) = weigh_by_roles(file, skeleton, MassSettings::default())
        .ok()
        .flatten()
    else {
        return false;
    };
    let Ok(made) = Skeleton::from_file(weighed.clone(), name) else {
        return false;
    };
    *file = weighed;
    *skeleton = made;
    true
}
