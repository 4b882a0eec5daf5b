//! Mesh attachments (SkelForm's visuals with vertices): a textured triangle
//! mesh whose vertices follow the slot's bone and, through binds, other bones.

use super::BoneId;

/// One vertex of a [`Mesh`]: where it sits in the setup pose and which
/// texture point it shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshVertex {
    /// Position in the space of the slot's bone (before the pivot rotation and scale).
    pub x: f64,
    /// Position y in the same space (+y up).
    pub y: f64,
    /// Texture coordinates, 0..1, y down.
    pub u: f64,
    /// Texture coordinate v: 0 at the picture's top edge, 1 at its bottom.
    pub v: f64,
}

/// Vertices that follow one bone.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshBind {
    /// The bone the vertices follow.
    pub bone: BoneId,
    /// SkelForm's `is_path`: the binds form one line and each vertex keeps its
    /// offset turned by the line's normal at this bone instead of following
    /// the bone's rotation and scale.
    pub path: bool,
    /// (vertex index, weight).
    pub verts: Vec<(u32, f64)>,
}

/// A textured triangle mesh attachment; its vertices follow the slot's bone
/// and, through [`Mesh::binds`], other bones.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// The picture stretched over the mesh (a sprite name, like a sprite attachment's).
    pub image: Option<String>,
    /// The vertices in setup position; triangles and binds index them.
    pub vertices: Vec<MeshVertex>,
    /// Three vertex indices per triangle.
    pub indices: Vec<u32>,
    /// Bones besides the slot's that move vertex sets, applied in order.
    pub binds: Vec<MeshBind>,
    /// SkelForm's `pivot_rot` and `pivot_scale`: applied to vertex offsets.
    pub pivot_rot: f64,
    /// SkelForm's `pivot_scale` (x, y): multiplies vertex offsets before
    /// `pivot_rot` turns them.
    pub pivot_scale: (f64, f64),
}
