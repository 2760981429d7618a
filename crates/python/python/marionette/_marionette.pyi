"""Type stubs of the native module (docs/python.md)."""

from os import PathLike
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

_Path = Union[str, PathLike]
_Vec3 = Sequence[float]
_Array = npt.NDArray[np.float64]

class Error(Exception): ...
class FileError(Error): ...
class LimitError(Error): ...

class Dof:
    joint: str
    index: int
    kind: str
    axis: Tuple[float, float, float]
    min: float
    max: float
    unlimited: bool
    rest: float

class Joint:
    name: str
    parent: Optional[str]
    dofs: List[Dof]
    mass: float
    offset: Tuple[float, float, float]

class Site:
    name: str
    joint: str
    offset: Tuple[float, float, float]

class Frame:
    joints: _Array
    joint_names: List[str]
    sites: Dict[str, _Array]
    com: _Array
    def joint(self, name: str) -> _Array: ...

class FigurePose:
    @staticmethod
    def load(skeleton: Skeleton, path: _Path) -> FigurePose: ...
    def save(self, path: _Path) -> None: ...
    skeleton_name: str
    root: List[float]
    q: _Array
    def __getitem__(self, joint: str) -> List[float]: ...
    def __setitem__(self, joint: str, values: Sequence[float]) -> None: ...
    def __contains__(self, joint: str) -> bool: ...
    def keys(self) -> List[str]: ...
    def to_dict(self) -> Dict[str, List[float]]: ...
    def copy(self) -> FigurePose: ...
    def within_limits(self) -> bool: ...

class Skeleton:
    @staticmethod
    def load(path: _Path) -> Skeleton: ...
    name: str
    path: Optional[str]
    joints: List[Joint]
    joint_names: List[str]
    dofs: List[Dof]
    sites: List[Site]
    site_names: List[str]
    mass: float
    def rest_pose(self) -> FigurePose: ...
    def forward(self, pose: FigurePose) -> Frame: ...

class Character:
    skeleton: Skeleton
    path: str
    masses: str

def open_character(path: _Path) -> Character: ...

class Goal:
    kind: str
    @staticmethod
    def position(site: str, target: _Vec3, weight: float = 1.0, priority: int = 0) -> Goal: ...
    @staticmethod
    def orientation(
        joint: str, target: _Vec3, axes: str = "xyz", weight: float = 1.0, priority: int = 0
    ) -> Goal: ...
    @staticmethod
    def pose(
        site: str, target: _Vec3, rotation: _Vec3, weight: float = 1.0, priority: int = 0
    ) -> Goal: ...
    @staticmethod
    def aim(site: str, axis: _Vec3, at: _Vec3, weight: float = 1.0, priority: int = 0) -> Goal: ...
    @staticmethod
    def plane(
        site: str, point: _Vec3, normal: _Vec3, weight: float = 1.0, priority: int = 0
    ) -> Goal: ...
    @staticmethod
    def line(
        site: str, point: _Vec3, direction: _Vec3, weight: float = 1.0, priority: int = 0
    ) -> Goal: ...
    @staticmethod
    def point(
        joint: str,
        target: _Vec3,
        offset: _Vec3 = ...,
        normal: Optional[_Vec3] = None,
        weight: float = 1.0,
        priority: int = 0,
    ) -> Goal: ...
    @staticmethod
    def coincide(a: str, b: str, weight: float = 1.0, priority: int = 0) -> Goal: ...
    @staticmethod
    def center_of_mass(
        target: _Vec3, axes: str = "xyz", weight: float = 1.0, priority: int = 0
    ) -> Goal: ...

class GoalResult:
    kind: str
    error: float
    status: str
    why: Optional[str]
    short_by: Optional[float]
    held_by: List[Tuple[str, int]]

class Solution:
    pose: FigurePose
    converged: bool
    residual: float
    iterations: int
    solver: str
    goals: List[GoalResult]
    limits_hit: List[Tuple[str, int]]
    swivel: Optional[float]
    micros: float
    why: List[str]

def solve(
    skeleton: Skeleton,
    pose: FigurePose,
    goals: Sequence[Goal],
    solver: str = "dls",
    *,
    tolerance: float = 1e-4,
    max_iterations: int = 200,
    base: Optional[str] = None,
    move_root: bool = False,
    frozen: Sequence[str] = ...,
    damping: Optional[float] = None,
    swivel: Optional[float] = None,
    bend_hints: float = 0.0,
) -> Solution: ...

class Baked:
    sequence: str
    figure: str
    fps: float
    frames: npt.NDArray[np.int64]
    joint_names: List[str]
    joints_world: _Array
    values: Dict[str, _Array]
    root: _Array
    sites: Dict[str, _Array]
    com: _Array
    lock_errors: Dict[str, _Array]
    props: Dict[str, Dict[str, _Array]]

class Document:
    @staticmethod
    def open(path: _Path) -> Document: ...
    @staticmethod
    def new(skeleton: Skeleton) -> Document: ...
    def save(self, path: _Path) -> None: ...
    file: Optional[str]
    modified: bool
    figures: List[str]
    figure: str
    def select_figure(self, name: str) -> None: ...
    skeleton: Skeleton
    pose: FigurePose
    def set_pose(self, pose: FigurePose) -> None: ...
    props: Dict[str, Dict[str, Any]]
    def set_prop_mass(self, prop: str, kg: float) -> None: ...
    locks: List[Dict[str, Any]]
    def lock(self, site: str, kind: str = "position") -> str: ...
    def lock_center_of_mass(self) -> str: ...
    def remove_lock(self, name: str) -> None: ...
    def set_lock_enabled(self, name: str, enabled: bool) -> None: ...
    def set_lock_frames(self, name: str, frames: Optional[Tuple[int, int]]) -> None: ...
    def rename_lock(self, name: str, new_name: str) -> None: ...
    def set_lock_weight(self, name: str, weight: float) -> None: ...
    body: Optional[Tuple[float, str]]
    def set_body(self, mass: float, female: bool = False) -> None: ...
    def move_key(self, from_: int, to: int) -> None: ...
    sequences: List[str]
    def keys(self, sequence: str) -> List[int]: ...
    def key_pose(self, sequence: str, frame: int) -> FigurePose: ...
    def new_sequence(self, name: Optional[str] = None) -> str: ...
    def show_sequence(self, name: str) -> None: ...
    def rename_sequence(self, name: str, new_name: str) -> None: ...
    def delete_sequence(self, name: str) -> None: ...
    frame: int
    def go_to_frame(self, frame: int) -> None: ...
    def set_key(self, frame: Optional[int] = None) -> None: ...
    def delete_key(self, frame: int) -> None: ...
    def undo(self) -> bool: ...
    def redo(self) -> bool: ...
    def bake(self, sequence: str, figure: Optional[str] = None, threads: int = 0) -> Baked: ...
    def export(
        self, sequence: Optional[str], path: _Path, figure: Optional[str] = None
    ) -> List[str]: ...
    def add_figure(
        self,
        name: str,
        file: Optional[_Path] = None,
        at: Sequence[float] = ...,
        facing: float = 0.0,
    ) -> None: ...
    def remove_figure(self, name: str) -> None: ...
    def rename_figure(self, name: str, new_name: str) -> None: ...
    def place_figure(self, name: str, at: Sequence[float], facing: float = 0.0) -> None: ...
    def add_prop(
        self,
        name: str,
        *,
        size: Optional[_Vec3] = None,
        sphere: Optional[float] = None,
        cylinder: Optional[Tuple[float, float]] = None,
        mesh: Optional[str] = None,
        at: _Vec3 = ...,
        rotation: _Vec3 = ...,
        mass: Optional[float] = None,
    ) -> None: ...
    def remove_prop(self, name: str) -> None: ...
    def place_prop(self, name: str, at: _Vec3, rotation: _Vec3 = ...) -> None: ...
    def lock_between(
        self, a: Tuple[str, str], b: Tuple[str, str], turned: bool = False
    ) -> None: ...
    def remove_link(self, name: str) -> None: ...
    def grip(self, prop: str, figure: str, site: str, frame: int) -> None: ...
    def release(self, prop: str, frame: int) -> None: ...
    links: List[str]
    def physics_check(
        self,
        sequence: str,
        figure: Optional[str] = None,
        mass: Optional[float] = None,
        female: bool = False,
    ) -> Dict[str, Any]: ...
    def physics_fix(
        self,
        sequence: str,
        span: Tuple[int, int],
        *,
        ballistic: bool = False,
        momentum: bool = False,
        marks: Sequence[int] = ...,
        apex: Optional[float] = None,
        standing: bool = False,
        mass: Optional[float] = None,
        female: bool = False,
    ) -> str: ...

class Capture:
    skeleton: Skeleton
    name: str
    path: str
    frames: int
    fps: float
    scale: float
    takes: Optional[Tuple[List[str], str]]
    def physics_check(self, mass: Optional[float] = None, female: bool = False) -> Dict[str, Any]: ...
    def to_document(self, skeleton_path: _Path) -> Document: ...

def read_capture(
    path: _Path, scale: Optional[float] = None, take: Optional[str] = None, every: int = 1
) -> Capture: ...

class Retargeted:
    document: Document
    sequence: str
    map: List[Tuple[str, str, str]]
    limited: List[Tuple[str, int, float]]
    hip_ratio: float
    cleanup: Optional[Dict[str, Any]]

def retarget(
    capture: Capture,
    onto: Union[Skeleton, Document],
    map: Optional[_Path] = None,
    where_it_stands: bool = False,
    clean_feet: bool = False,
) -> Retargeted: ...
def cleanup(
    document: Document,
    sequence: str,
    sites: Optional[Sequence[str]] = None,
    figure: Optional[str] = None,
) -> Dict[str, Any]: ...
def _solve_in_rust(
    skeleton: Skeleton, pose: FigurePose, goals: Sequence[Goal], solver: str = "dls", repeats: int = 1000
) -> float: ...
def _bake_in_rust(document: Document, sequence: str, repeats: int = 1, threads: int = 0) -> float: ...
def _bake_handover_cost(document: Document, sequence: str, repeats: int = 20) -> float: ...
