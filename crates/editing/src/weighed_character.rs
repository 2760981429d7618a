//! A rigged character imported the way every front end imports it ([`import_weighed`]): as
//! [`import_of`] reads it, then its joints weighed by de Leva's segments by humanoid role
//! ([`weigh_by_roles`], 75 kg, male), so that its own masses (what `marionette fk`'s centre of
//! mass and the centre-of-mass lock weigh) are the physics assistant's, not its capsules'
//! (about 75 % of the mass in the legs). A figure with no roles keeps its capsules' masses.

use std::path::Path;

use marionette_interchange::character::{Character, CharacterError, CharacterImport, import_of};
use marionette_physics::MassSettings;
use marionette_physics::weigh::weigh_by_roles;
use marionette_skeleton::Skeleton;

/// What the import says of its masses, for its report.
pub const WEIGHED: &str = "masses: de Leva's segments by humanoid role (75 kg, male)";
/// What the import says of a figure it could not weigh by roles.
pub const NOT_WEIGHED: &str = "masses: each bone's capsule (no humanoid roles)";

/// `character` read from `path` and imported for `skeleton_out` ([`import_of`]), its joints
/// weighed by de Leva's segments when it has humanoid roles; with the line its report adds.
pub fn import_weighed(
    character: Character,
    path: &Path,
    skeleton_out: &Path,
) -> Result<(CharacterImport, &'static str), CharacterError> {
    let mut import = import_of(character, path, skeleton_out)?;
    let imported = &mut import.imported;
    let weighed = weigh_by_roles(
        &imported.skeleton_file,
        &imported.skeleton,
        MassSettings::default(),
    )
    .ok()
    .flatten()
    .and_then(|file| {
        let skeleton = Skeleton::from_file(file.clone(), &skeleton_out.display().to_string());
        Some((file, skeleton.ok()?))
    });
    let said = match weighed {
        Some((file, skeleton)) => {
            imported.skeleton_file = file;
            imported.skeleton = skeleton;
            WEIGHED
        }
        None => NOT_WEIGHED,
    };
    Ok((import, said))
}
