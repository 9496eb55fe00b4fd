"""Bit intrinsics for numba kernels: the population count and the trailing zeros of a word, each one
machine instruction (``popcnt``, ``tzcnt``) where the processor has it."""

from numba.core import cgutils, types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of an integer."""

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def ctz(typingctx, x):
    """The index of the lowest set bit of a nonzero integer (undefined for 0)."""

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return x(x), codegen


@intrinsic
def ld(typingctx, arr, i):
    """``arr[i]`` of a 1-d array without numba's negative-index wrap-around (``i`` is known to be
    in range), so a hot loop keeps neither the array's length nor a select per access."""

    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        return context.unpack_value(builder, aryty.dtype, ptr)

    return arr.dtype(arr, i), codegen


@intrinsic
def put(typingctx, arr, i, v):
    """``arr[i] = v`` without the wrap-around (``ld``); ``v`` is cast to the array's type."""

    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        val = context.cast(builder, args[2], sig.args[2], aryty.dtype)
        context.pack_value(builder, aryty.dtype, val, ptr)
        return context.get_dummy_value()

    return types.none(arr, i, v), codegen
