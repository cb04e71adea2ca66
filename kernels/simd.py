"""Eight int64 lanes as one LLVM vector (``<8 x i64>``) in numba code: explicit SIMD for the lane kernels.

numba's loops over a few lanes do not vectorise when they touch many arrays (LLVM cannot rule out that the
arrays overlap), so a kernel that plays several deals side by side holds each per-lane quantity in an
:data:`I64x8` value instead: arithmetic, logic and shifts by ``+ - * & | ^ << >>`` (``>>`` arithmetic, a
scalar operand is broadcast), comparisons by :func:`veq` ... :func:`vge` (a mask: -1 where true, 0 where false),
and the memory by :func:`vload` / :func:`vstore` (eight consecutive elements) and :func:`vgather` (one element
per lane at a vector of indices). Compiled code only; with AVX-512 each operation is one instruction or a few.
"""

from __future__ import annotations

import operator

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.registry import cpu_target
from numba.extending import intrinsic, models, overload, register_model

N = 8
_I64 = ir.IntType(64)
_VT = ir.VectorType(_I64, N)


class I64x8Type(types.Type):
    def __init__(self):
        super().__init__(name="I64x8")


I64x8 = I64x8Type()


@register_model(I64x8Type)
class _I64x8Model(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, _VT)


def _is_vec(t):
    return isinstance(t, I64x8Type)


def _is_int(t):
    return isinstance(t, (types.Integer, types.Boolean))


def _splat_value(context, builder, value, ty):
    x = context.cast(builder, value, ty, types.int64)
    v = builder.insert_element(ir.Constant(_VT, ir.Undefined), x, ir.Constant(ir.IntType(32), 0))
    return builder.shuffle_vector(
        v, ir.Constant(_VT, ir.Undefined), ir.Constant(ir.VectorType(ir.IntType(32), N), [0] * N)
    )


def _operand(context, builder, value, ty):
    return value if _is_vec(ty) else _splat_value(context, builder, value, ty)


@intrinsic
def vsplat(typingctx, x):
    """Every lane ``x``."""
    if not _is_int(x):
        return None

    def codegen(context, builder, sig, args):
        return _splat_value(context, builder, args[0], sig.args[0])

    return I64x8(x), codegen


def _binary(name, emit):
    @intrinsic
    def op(typingctx, a, b):
        if not ((_is_vec(a) or _is_int(a)) and (_is_vec(b) or _is_int(b)) and (_is_vec(a) or _is_vec(b))):
            return None

        def codegen(context, builder, sig, args):
            x = _operand(context, builder, args[0], sig.args[0])
            y = _operand(context, builder, args[1], sig.args[1])
            return emit(builder, x, y)

        return I64x8(a, b), codegen

    op.__name__ = name
    return op


def _cmp(pred):
    return lambda builder, x, y: builder.sext(builder.icmp_signed(pred, x, y), _VT)


vadd = _binary("vadd", lambda b, x, y: b.add(x, y))
vsub = _binary("vsub", lambda b, x, y: b.sub(x, y))
vmul = _binary("vmul", lambda b, x, y: b.mul(x, y))
vand = _binary("vand", lambda b, x, y: b.and_(x, y))
vor = _binary("vor", lambda b, x, y: b.or_(x, y))
vxor = _binary("vxor", lambda b, x, y: b.xor(x, y))
vshl = _binary("vshl", lambda b, x, y: b.shl(x, y))
vsar = _binary("vsar", lambda b, x, y: b.ashr(x, y))
vshr = _binary("vshr", lambda b, x, y: b.lshr(x, y))


def _emit_mulu32(builder, x, y):
    """The full 64-bit product of the low 32 bits of ``x`` and ``y`` (unsigned), lane by lane. With AVX-512 LLVM
    emits ``vpmullq`` for a 64-bit multiply even when both operands fit 32 bits (15 cycles' latency on Intel, 3
    uops) where ``vpmuludq`` does it in one; on such a target the intrinsic is called, elsewhere the operands are
    masked and multiplied (what LLVM turns into ``vpmuludq`` without AVX-512)."""
    features = getattr(cpu_target.target_context.codegen(), "_tm_features", "") or ""
    if "+avx512f" in features.split(","):
        v16 = ir.VectorType(ir.IntType(32), 2 * N)
        fn = builder.module.declare_intrinsic("llvm.x86.avx512.pmulu.dq.512", fnty=ir.FunctionType(_VT, [v16, v16]))
        return builder.call(fn, [builder.bitcast(x, v16), builder.bitcast(y, v16)])
    low = ir.Constant(_VT, [0xFFFFFFFF] * N)
    return builder.mul(builder.and_(x, low), builder.and_(y, low))


vmulu32 = _binary("vmulu32", _emit_mulu32)

veq = _binary("veq", _cmp("=="))
vne = _binary("vne", _cmp("!="))
vlt = _binary("vlt", _cmp("<"))
vle = _binary("vle", _cmp("<="))
vgt = _binary("vgt", _cmp(">"))
vge = _binary("vge", _cmp(">="))
vmin = _binary("vmin", lambda b, x, y: b.select(b.icmp_signed("<", x, y), x, y))
vmax = _binary("vmax", lambda b, x, y: b.select(b.icmp_signed(">", x, y), x, y))

for _op, _f in (
    (operator.add, vadd),
    (operator.sub, vsub),
    (operator.mul, vmul),
    (operator.and_, vand),
    (operator.or_, vor),
    (operator.xor, vxor),
    (operator.lshift, vshl),
    (operator.rshift, vsar),
):

    def _make(f):
        def ov(a, b):
            if (_is_vec(a) or _is_int(a)) and (_is_vec(b) or _is_int(b)) and (_is_vec(a) or _is_vec(b)):
                return lambda a, b: f(a, b)

        return ov

    overload(_op)(_make(_f))


@overload(operator.neg)
def _neg(a):
    if _is_vec(a):
        return lambda a: vsub(0, a)


@intrinsic
def vselect(typingctx, m, a, b):
    """``a`` where the mask ``m`` is set (nonzero), else ``b``."""
    if not (_is_vec(m) and (_is_vec(a) or _is_int(a)) and (_is_vec(b) or _is_int(b))):
        return None

    def codegen(context, builder, sig, args):
        x = _operand(context, builder, args[1], sig.args[1])
        y = _operand(context, builder, args[2], sig.args[2])
        return builder.select(builder.icmp_signed("!=", args[0], ir.Constant(_VT, None)), x, y)

    return I64x8(m, a, b), codegen


def _unary_intrinsic(name, llvm_name, extra=()):
    @intrinsic
    def op(typingctx, a):
        if not _is_vec(a):
            return None

        def codegen(context, builder, sig, args):
            fnty = ir.FunctionType(_VT, [_VT] + [ir.IntType(1)] * len(extra))
            fn = cgutils.get_or_insert_function(builder.module, fnty, llvm_name)
            return builder.call(fn, [args[0]] + [ir.Constant(ir.IntType(1), e) for e in extra])

        return I64x8(a), codegen

    op.__name__ = name
    return op


vpopcount = _unary_intrinsic("vpopcount", "llvm.ctpop.v8i64")
vclz = _unary_intrinsic("vclz", "llvm.ctlz.v8i64", (0,))  # 64 for a zero lane


def _data_pointer(context, builder, arrty, arr):
    ary = context.make_array(arrty)(context, builder, value=arr)
    return ary.data


def _lane_pointers(context, builder, arrty, arr, idx):
    """The addresses of ``arr[idx[j]]`` as a vector of pointers, its type, and an all-true lane mask."""
    base = builder.ptrtoint(_data_pointer(context, builder, arrty, arr), _I64)
    addr = builder.add(_splat_value(context, builder, base, types.int64), builder.shl(idx, ir.Constant(_VT, 3)))
    pvt = ir.VectorType(_I64.as_pointer(), N)
    return builder.inttoptr(addr, pvt), pvt, ir.Constant(ir.VectorType(ir.IntType(1), N), [1] * N)


@intrinsic
def vload(typingctx, arr, i):
    """Elements ``i .. i + 7`` of the contiguous int64 array ``arr`` (no bounds check)."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and _is_int(i)):
        return None

    def codegen(context, builder, sig, args):
        data = _data_pointer(context, builder, sig.args[0], args[0])
        idx = context.cast(builder, args[1], sig.args[1], types.intp)
        ptr = builder.gep(data, [idx])
        return builder.load(builder.bitcast(ptr, _VT.as_pointer()), align=8)

    return I64x8(arr, i), codegen


@intrinsic
def vstore(typingctx, arr, i, v):
    """``arr[i .. i + 7] = v`` (no bounds check)."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and _is_int(i) and _is_vec(v)):
        return None

    def codegen(context, builder, sig, args):
        data = _data_pointer(context, builder, sig.args[0], args[0])
        idx = context.cast(builder, args[1], sig.args[1], types.intp)
        ptr = builder.gep(data, [idx])
        builder.store(args[2], builder.bitcast(ptr, _VT.as_pointer()), align=8)
        return context.get_dummy_value()

    return types.none(arr, i, v), codegen


@intrinsic
def vgather(typingctx, arr, idx):
    """``arr[idx[j]]`` in lane j, for the int64 array ``arr`` (no bounds check: each index must be in range)."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and _is_vec(idx)):
        return None

    def codegen(context, builder, sig, args):
        ptrs, pvt, mask = _lane_pointers(context, builder, sig.args[0], args[0], args[1])
        fnty = ir.FunctionType(_VT, [pvt, ir.IntType(32), mask.type, _VT])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.masked.gather.v8i64.v8p0")
        return builder.call(fn, [ptrs, ir.Constant(ir.IntType(32), 8), mask, ir.Constant(_VT, ir.Undefined)])

    return I64x8(arr, idx), codegen


@intrinsic
def vlane(typingctx, v, j):
    """Lane ``j`` of ``v`` as an int64."""
    if not (_is_vec(v) and _is_int(j)):
        return None

    def codegen(context, builder, sig, args):
        return builder.extract_element(args[0], context.cast(builder, args[1], sig.args[1], types.int64))

    return types.int64(v, j), codegen


@intrinsic
def viota(typingctx):
    """Lanes 0, 1, ..., 7."""

    def codegen(context, builder, sig, args):
        return ir.Constant(_VT, list(range(N)))

    return I64x8(), codegen


def _reduce(name, llvm_name):
    @intrinsic
    def op(typingctx, a):
        if not _is_vec(a):
            return None

        def codegen(context, builder, sig, args):
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(_I64, [_VT]), llvm_name)
            return builder.call(fn, [args[0]])

        return types.int64(a), codegen

    op.__name__ = name
    return op


vsum = _reduce("vsum", "llvm.vector.reduce.add.v8i64")
vmax_lane = _reduce("vmax_lane", "llvm.vector.reduce.smax.v8i64")
vany = _reduce("vany", "llvm.vector.reduce.or.v8i64")


@overload(operator.invert)
def _invert(a):
    if _is_vec(a):
        return lambda a: vxor(a, -1)


@intrinsic
def vscatter(typingctx, arr, idx, v):
    """``arr[idx[j]] = v[j]`` for every lane j, in lane order (no bounds check)."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and _is_vec(idx) and _is_vec(v)):
        return None

    def codegen(context, builder, sig, args):
        ptrs, pvt, mask = _lane_pointers(context, builder, sig.args[0], args[0], args[1])
        fnty = ir.FunctionType(ir.VoidType(), [_VT, pvt, ir.IntType(32), mask.type])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.masked.scatter.v8i64.v8p0")
        builder.call(fn, [args[2], ptrs, ir.Constant(ir.IntType(32), 8), mask])
        return context.get_dummy_value()

    return types.none(arr, idx, v), codegen
