//! OpenCL images (issue 18): `read_image{f,i,ui}` and `write_image{f,i,ui}` on 1D, 2D and 3D
//! images, as accesses of the image's memory object.
//!
//! clang passes an image to a kernel as a pointer to an opaque struct (`opencl.image2d_wo_t`),
//! so an image parameter already is a memory object, as a `__global` pointer parameter is.
//! GPUVerify's OpenCL header (Bugle's `opencl.h`) makes an image a `__global` array of texels,
//! the texel at `(x, y)` at index `y·W + x` with `W = CL_DEVICE_IMAGE2D_MAX_WIDTH = 2^15`
//! (3D: `(z·H + y)·W + x`, `2^10` each; 1D: `x`). kivl lays texels out the same way, each
//! four 32-bit lanes (texel `t`, lane `k` at byte offset `16·t + 4·k`), so that GPUVerify's
//! annotations on images (`__write_offset_bytes(img) / sizeof(uint4) % W == x`, which
//! `headers/annotations.h` accepts on images) mean the same thing here.
//!
//! - A **write** is one race-checked write per lane of the texel its integer coordinates name.
//!   Equal coordinates give equal indices, so two writes of one texel always meet; distinct
//!   coordinates within the device limits give distinct indices (beyond them two texels may
//!   share an index: a race may be reported that is not one, never one missed).
//! - A **read** is one race-checked read per lane of the texel its integer coordinates name
//!   (of an arbitrary texel for float coordinates, which the sampler scales, wraps or filters).
//!   Its value is arbitrary: format conversion, filtering and the sampler's addressing mode
//!   make what a read returns differ from what is stored. In OpenCL 1.2 an image is read-only
//!   or write-only in a kernel (clang's image types enforce it), so reads and writes of one
//!   image never meet; the reads are logged for annotations such as `__read_implies(img, …)`.
//! - Writes to image arrays and depth images, mip-mapped and half-precision writes
//!   (`write_imageh`) are `unsupported`, as is any other use of an image (`get_image_width`);
//!   reads of those images (and `read_imageh`) give arbitrary values without a logged access.

use super::frame::Frame;
use super::values::{scalar_ty, vector_shape, Ex, Ty, Val};
use super::Tr;
use crate::memory::{Lin, Ptr};
use crate::{builtins, Loc};
use llvm_ir::instruction as inst;
use llvm_ir::{Name, Operand};

/// GPUVerify's image geometry (Bugle's `opencl.h`): the row length of 2D images, and the row
/// length and column height of 3D images, in texels.
const WIDTH_2D: u64 = 1 << 15;
const SIDE_3D: u64 = 1 << 10;
/// Bytes per texel: four 32-bit lanes.
const TEXEL_BYTES: u64 = 16;

/// An image built-in: a read or a write, and the image's geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ImageCall {
    write: bool,
    dims: u32,
}

/// The image built-in a mangled name calls (`_Z12write_imagef14ocl_image2d_woDv2_iDv4_f`),
/// `Err` with the reason for image built-ins kivl does not model, `Ok(None)` for other
/// functions.
fn image_call(mangled: &str) -> Result<Option<ImageCall>, String> {
    let name = builtins::demangle(mangled);
    let write = match name {
        "read_imagef" | "read_imagei" | "read_imageui" => false,
        "write_imagef" | "write_imagei" | "write_imageui" => true,
        _ if name.contains("_image") && (name.starts_with("read_") || name.starts_with("write_")) => {
            return Err(format!("`{name}` (only the 32-bit-lane image functions are modelled)"));
        }
        _ if name.starts_with("get_image_") => return Err(format!("`{name}` (image queries are not modelled)")),
        _ => return Ok(None),
    };
    // The image type's name up to its access qualifier: `2d` in `ocl_image2d_wo`.
    let kind = mangled.split_once("ocl_image").and_then(|(_, rest)| {
        let end = ["_ro", "_wo", "_rw"].iter().filter_map(|q| rest.find(q)).min()?;
        Some(&rest[..end])
    });
    let dims = match kind {
        Some("1d" | "1d_buffer") => 1,
        Some("2d") => 2,
        Some("3d") => 3,
        Some(k) => return Err(format!("`{name}` on an image of type image{k}_t")),
        None => return Err(format!("`{name}` on something that is not an image")),
    };
    Ok(Some(ImageCall { write, dims }))
}

/// Whether `mangled` names an image built-in (its result is not a value to recompute).
pub(super) fn is_image_function(mangled: &str) -> bool {
    !matches!(image_call(mangled), Ok(None))
}

impl<'m> Tr<'m> {
    /// Translates `c` if it calls an image built-in (see the module documentation).
    pub(super) fn image_call(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, name: &str, loc: Option<Loc>) -> bool {
        let call = match image_call(name) {
            Ok(None) => return false,
            Ok(Some(call)) => call,
            // A read never races (the image is read-only in the kernel): arbitrary values.
            Err(_) if builtins::demangle(name).starts_with("read_image") => {
                self.unlogged_image_read(f, c, loc);
                return true;
            }
            Err(what) => {
                self.err(loc, format!("the OpenCL image function {what}"));
                return true;
            }
        };
        // read: (image, [sampler,] coordinates); write: (image, coordinates, colour).
        let arity_ok = if call.write { c.arguments.len() == 3 } else { matches!(c.arguments.len(), 2 | 3) };
        if !arity_ok {
            self.err(loc, format!("`{}` with {} arguments", builtins::demangle(name), c.arguments.len()));
            return true;
        }
        let image = self.operand(f, &c.arguments[0].0, loc);
        let Some(image) = self.ptr(image, loc) else { return true };
        let coords = if call.write { &c.arguments[1].0 } else { &c.arguments[c.arguments.len() - 1].0 };
        let Some(texel) = self.texel_pointer(f, &image, coords, call.dims, loc) else { return true };
        if call.write {
            self.image_write(f, &texel, &c.arguments[2].0, loc);
        } else if let Some(dest) = &c.dest {
            self.image_read(f, c, dest, &texel, loc);
        }
        true
    }

    /// A pointer to lane 0 of the texel that the coordinates `coords` name in `image`.
    fn texel_pointer(
        &mut self,
        f: &Frame<'m>,
        image: &Ptr,
        coords: &Operand,
        dims: u32,
        loc: Option<Loc>,
    ) -> Option<Ptr> {
        let lanes = match self.operand(f, coords, loc)? {
            Val::Scalar(e) => vec![e],
            Val::Vector(lanes) => lanes,
            Val::Ptr(_) => {
                self.err(loc, "image coordinates that are a pointer");
                return None;
            }
        };
        if lanes.len() < dims as usize {
            self.err(loc, format!("{} image coordinates for a {dims}D image", lanes.len()));
            return None;
        }
        let strides =
            [TEXEL_BYTES, TEXEL_BYTES * if dims == 2 { WIDTH_2D } else { SIDE_3D }, TEXEL_BYTES * SIDE_3D * SIDE_3D];
        let mut off = Lin::default();
        for (e, stride) in lanes.iter().zip(strides).take(dims as usize) {
            let term = match e.ty {
                Ty::Bv(32) => e.text.clone(),
                // Float coordinates: the sampler decides which texel is read.
                _ => {
                    let any = self.body.fresh_var("texel_index", "bv32");
                    self.body.emit(format!("havoc {any};"), loc);
                    return Some(Ptr { base: image.base, off: Lin::term(any, TEXEL_BYTES), alt: image.alt.clone() });
                }
            };
            off = off.plus(&Lin::term(term, stride));
        }
        Some(Ptr { base: image.base, off, alt: image.alt.clone() })
    }

    /// `write_image*(image, coordinates, colour)`: one write per lane of the colour.
    fn image_write(&mut self, f: &Frame<'m>, texel: &Ptr, colour: &Operand, loc: Option<Loc>) {
        let lanes = match self.operand(f, colour, loc) {
            Some(Val::Vector(lanes)) if lanes.len() == 4 && lanes.iter().all(|e| e.ty.width() == 32) => lanes,
            Some(_) => {
                self.err(loc, "an image write of a colour that is not four 32-bit lanes");
                return;
            }
            None => return,
        };
        for (k, e) in lanes.iter().enumerate() {
            let q = lane(texel, k);
            self.on_each_object(&q, loc, |tr, q| tr.write(q, e.ty, &e.text, loc));
        }
    }

    /// `read_image*(image, [sampler,] coordinates)`: one read per lane, whose value is then
    /// forgotten (the result is arbitrary).
    fn image_read(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, dest: &Name, texel: &Ptr, loc: Option<Loc>) {
        let ty = match vector_shape(&self.module.type_of(c)) {
            Some((4, elem)) => scalar_ty(&elem).filter(|t| t.width() == 32),
            _ => None,
        };
        let Some(ty) = ty else {
            self.unlogged_image_read(f, c, loc);
            return;
        };
        let base = f.var(dest);
        let mut lanes = Vec::with_capacity(4);
        for k in 0..4 {
            let v = format!("{base}.{k}");
            self.body.declare(v.clone(), ty.kbpl());
            let q = lane(texel, k);
            self.on_each_object(&q, loc, |tr, q| tr.access(q, ty, loc).map(|place| format!("{v} := {place};")));
            lanes.push(Ex::new(v, ty));
        }
        let names: Vec<&str> = lanes.iter().map(|e| e.text.as_str()).collect();
        self.body.emit(format!("havoc {};", names.join(", ")), loc);
        f.vals.insert(dest.clone(), Val::Vector(lanes));
    }
}

impl<'m> Tr<'m> {
    /// A read of an image whose texels kivl does not lay out (arrays, depth images, half
    /// lanes): arbitrary values and no logged access, which is sound for races because the
    /// image is read-only in the kernel (only `__read(img)`-style annotations do not see it).
    fn unlogged_image_read(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, loc: Option<Loc>) {
        let Some(dest) = &c.dest else { return };
        let ty = self.module.type_of(c);
        let (lanes, elem) = match vector_shape(&ty) {
            Some((n, elem)) => (Some(n), elem),
            None => (None, ty),
        };
        let Some(t) = scalar_ty(&elem) else {
            self.err(loc, "an image read of a type that is neither a number nor a vector");
            return;
        };
        let base = f.var(dest);
        let names: Vec<String> = match lanes {
            Some(n) => (0..n).map(|k| format!("{base}.{k}")).collect(),
            None => vec![base],
        };
        for v in &names {
            self.body.declare(v.clone(), t.kbpl());
        }
        self.body.emit(format!("havoc {};", names.join(", ")), loc);
        let mut exs: Vec<Ex> = names.into_iter().map(|v| Ex::new(v, t)).collect();
        let val = if lanes.is_some() { Val::Vector(exs) } else { Val::Scalar(exs.remove(0)) };
        f.vals.insert(dest.clone(), val);
    }
}

/// Lane `k` of the texel whose lane 0 is at `texel`.
fn lane(texel: &Ptr, k: usize) -> Ptr {
    Ptr { base: texel.base, off: texel.off.clone().plus(&Lin::constant(4 * k as u64)), alt: texel.alt.clone() }
}

#[cfg(test)]
mod tests {
    use super::{image_call, is_image_function, lane, ImageCall, WIDTH_2D};
    use crate::memory::{Lin, Ptr};

    #[test]
    fn image_functions_by_their_mangled_names() {
        let w2 = image_call("_Z12write_imagef14ocl_image2d_woDv2_iDv4_f");
        assert_eq!(w2, Ok(Some(ImageCall { write: true, dims: 2 })));
        let r3 = image_call("_Z12read_imageui14ocl_image3d_ro11ocl_samplerDv4_i");
        assert_eq!(r3, Ok(Some(ImageCall { write: false, dims: 3 })));
        let r1 = image_call("_Z11read_imagef21ocl_image1d_buffer_roi");
        assert_eq!(r1, Ok(Some(ImageCall { write: false, dims: 1 })));
        assert!(image_call("_Z11read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_i").is_err());
        assert!(image_call("_Z11read_imageh14ocl_image2d_ro11ocl_samplerDv2_i").is_err());
        assert!(image_call("_Z15get_image_width14ocl_image2d_ro").is_err());
        assert_eq!(image_call("_Z3sinf"), Ok(None));
        assert!(is_image_function("_Z12write_imagef14ocl_image2d_woDv2_iDv4_f"));
        assert!(!is_image_function("_Z10atomic_incPU3AS1Vj"));
    }

    #[test]
    fn texels_are_laid_out_as_in_gpuverify() {
        // Lane 3 of texel (x, y) of a 2D image: byte 16·(y·2^15 + x) + 12.
        let p = Ptr::to(0, Lin::term("y".into(), 16 * WIDTH_2D).plus(&Lin::term("x".into(), 16)));
        let q = lane(&p, 3);
        assert_eq!(
            q.off.index(4, &mut |_| {}),
            "BV32_ADD(BV32_ADD(BV32_MUL(y, 131072bv32), BV32_MUL(x, 4bv32)), 3bv32)"
        );
    }
}
