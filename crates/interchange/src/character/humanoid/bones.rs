//! The humanoid bones as VRM 1.0 names them ([`HumanBone`]), and a limb's bones ([`Limb`]).

use marionette_skeleton::sides::Side;

/// A humanoid bone (VRM 1.0's names, without the fingers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[expect(missing_docs, reason = "the bones are named as VRM names them")]
pub enum HumanBone {
    Hips,
    Spine,
    Chest,
    UpperChest,
    Neck,
    Head,
    LeftShoulder,
    LeftUpperArm,
    LeftLowerArm,
    LeftHand,
    RightShoulder,
    RightUpperArm,
    RightLowerArm,
    RightHand,
    LeftUpperLeg,
    LeftLowerLeg,
    LeftFoot,
    LeftToes,
    RightUpperLeg,
    RightLowerLeg,
    RightFoot,
    RightToes,
}

/// A limb's bones, shoulder (or none) first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limb {
    /// An arm.
    Arm(Side),
    /// A leg.
    Leg(Side),
}

impl HumanBone {
    /// Every bone.
    pub const ALL: [HumanBone; 22] = [
        HumanBone::Hips,
        HumanBone::Spine,
        HumanBone::Chest,
        HumanBone::UpperChest,
        HumanBone::Neck,
        HumanBone::Head,
        HumanBone::LeftShoulder,
        HumanBone::LeftUpperArm,
        HumanBone::LeftLowerArm,
        HumanBone::LeftHand,
        HumanBone::RightShoulder,
        HumanBone::RightUpperArm,
        HumanBone::RightLowerArm,
        HumanBone::RightHand,
        HumanBone::LeftUpperLeg,
        HumanBone::LeftLowerLeg,
        HumanBone::LeftFoot,
        HumanBone::LeftToes,
        HumanBone::RightUpperLeg,
        HumanBone::RightLowerLeg,
        HumanBone::RightFoot,
        HumanBone::RightToes,
    ];

    /// The bones a humanoid must have (VRM's required set).
    pub const REQUIRED: [HumanBone; 15] = [
        HumanBone::Hips,
        HumanBone::Spine,
        HumanBone::Head,
        HumanBone::LeftUpperArm,
        HumanBone::LeftLowerArm,
        HumanBone::LeftHand,
        HumanBone::RightUpperArm,
        HumanBone::RightLowerArm,
        HumanBone::RightHand,
        HumanBone::LeftUpperLeg,
        HumanBone::LeftLowerLeg,
        HumanBone::LeftFoot,
        HumanBone::RightUpperLeg,
        HumanBone::RightLowerLeg,
        HumanBone::RightFoot,
    ];

    /// VRM 1.0's name of the bone (`leftUpperArm`).
    pub fn vrm_name(self) -> &'static str {
        match self {
            HumanBone::Hips => "hips",
            HumanBone::Spine => "spine",
            HumanBone::Chest => "chest",
            HumanBone::UpperChest => "upperChest",
            HumanBone::Neck => "neck",
            HumanBone::Head => "head",
            HumanBone::LeftShoulder => "leftShoulder",
            HumanBone::LeftUpperArm => "leftUpperArm",
            HumanBone::LeftLowerArm => "leftLowerArm",
            HumanBone::LeftHand => "leftHand",
            HumanBone::RightShoulder => "rightShoulder",
            HumanBone::RightUpperArm => "rightUpperArm",
            HumanBone::RightLowerArm => "rightLowerArm",
            HumanBone::RightHand => "rightHand",
            HumanBone::LeftUpperLeg => "leftUpperLeg",
            HumanBone::LeftLowerLeg => "leftLowerLeg",
            HumanBone::LeftFoot => "leftFoot",
            HumanBone::LeftToes => "leftToes",
            HumanBone::RightUpperLeg => "rightUpperLeg",
            HumanBone::RightLowerLeg => "rightLowerLeg",
            HumanBone::RightFoot => "rightFoot",
            HumanBone::RightToes => "rightToes",
        }
    }

    /// The bone VRM 1.0 calls `name`.
    pub fn from_vrm_name(name: &str) -> Option<HumanBone> {
        HumanBone::ALL.into_iter().find(|b| b.vrm_name() == name)
    }

    /// A limb's bones: shoulder, upper, lower, hand (arm); upper, lower, foot, toes (leg).
    pub fn limb(limb: Limb) -> [HumanBone; 4] {
        use HumanBone::*;
        match limb {
            Limb::Arm(Side::Left) => [LeftShoulder, LeftUpperArm, LeftLowerArm, LeftHand],
            Limb::Arm(Side::Right) => [RightShoulder, RightUpperArm, RightLowerArm, RightHand],
            Limb::Leg(Side::Left) => [LeftUpperLeg, LeftLowerLeg, LeftFoot, LeftToes],
            Limb::Leg(Side::Right) => [RightUpperLeg, RightLowerLeg, RightFoot, RightToes],
        }
    }
}
