"""One-call kernel launches: numba's parameter layout, and the same results as numba's launch."""

import numpy as np
import pytest
from numba import cuda

from warpath.cuda import launch as launching
from warpath.cuda.launch import ParameterBlock, flatten, launch, parameters
from warpath.cuda.runtime import SIMULATOR, argument_types, cooperative_blocks


class _DeviceLike:
    """What the flattening reads of a device array."""

    def __init__(self, shape, dtype, pointer):
        self.shape, self.dtype = shape, np.dtype(dtype)
        self.size = int(np.prod(shape))
        self.strides = tuple(int(s) for s in np.empty(shape, self.dtype).strides)
        self.device_ctypes_pointer = type("Pointer", (), {"value": pointer})()
        self.ndim = len(shape)
        self.flags = {"C_CONTIGUOUS": True, "F_CONTIGUOUS": len(shape) < 2}


def test_parameters_follow_numbas_layout():
    matrix, empty = _DeviceLike((2, 3), np.float32, 4096), _DeviceLike((0,), np.int64, None)
    flat = parameters((matrix, (empty, np.int32(-2)), np.uint64(2**64 - 1), np.float32(1.5),
                       0.25, False))
    assert flat[:9] == [0, 0, 6, 4, 4096, 2, 3, 12, 4]            # meminfo, parent, size, ...
    assert flat[9:16] == [0, 0, 0, 8, 0, 0, empty.strides[0]]     # a null pointer when empty
    assert flat[16:18] == [-2, -1]                                # two's complement bits
    assert np.array([flat[18]], np.int64).astype(np.int32).view(np.float32)[0] == 1.5
    assert np.array([flat[19]], np.int64).view(np.float64)[0] == 0.25
    assert flat[20] == 0


def test_one_pass_gives_the_types_and_the_parameters():
    args = (_DeviceLike((2, 3), np.float32, 4096), (np.int32(-2), 7, 2**63), 0.5, True,
            (np.bool_(True), np.uint8(200), np.int16(-5), np.uint64(2**64 - 1), np.float32(-1)))
    types, values = flatten(args)
    assert values[-5:] == [1, 200, -5, -1, -1082130432]
    assert types == argument_types(args) and values == parameters(args)
    array = args[0]
    assert flatten(args)[1] == values and hasattr(array, "_warpath_launch_share")   # kept


def test_numpy_integers_give_their_twos_complement_bits():
    for kind in (np.int8, np.int16, np.int32, np.int64, np.longlong, np.uint8, np.uint16,
                 np.uint32, np.uint64, np.ulonglong):
        info = np.iinfo(kind)
        for value in (info.min, info.max, 0):
            expected = np.array([value], kind).astype(np.int64, casting="unsafe")[0]
            assert parameters((kind(value),)) == [int(expected)], (kind, value)


def test_a_parameter_block_matches_flatten_over_changing_arguments():
    """Random runs of arguments (shared objects, new ones of the same type, another type,
    another shape, nested tuples and a namedtuple): the block's answer is flatten()'s each
    time, its types the same object while no type changed."""
    import collections

    rng = np.random.default_rng(3)
    pair = collections.namedtuple("Pair", "a b")
    arrays = [_DeviceLike((n,), np.int32, 4096 * (n + 1)) for n in range(1, 6)]
    scalars = [np.int32(1), np.int64(2), np.float32(0.5), 3, True, np.uint8(7)]

    def item():
        pick = rng.integers(4)
        if pick == 0:
            return arrays[rng.integers(len(arrays))]
        if pick == 1:
            return scalars[rng.integers(len(scalars))]
        if pick == 2:   # a job-like tuple whose objects may be shared
            return (arrays[rng.integers(2)], np.int64(rng.integers(9)), np.int32(-1))
        return pair(arrays[0], np.int64(rng.integers(3)))

    block = ParameterBlock()
    args = tuple(item() if rng.integers(2) else tuple(item() for _ in range(3))
                 for _ in range(4))
    kept_types = None
    for _ in range(300):
        changed = list(args)
        at = int(rng.integers(len(args)))
        if type(args[at]) is tuple and rng.integers(3):
            inner = list(args[at])
            inner[int(rng.integers(len(inner)))] = item()
            changed[at] = tuple(inner)
        else:
            changed[at] = item()
        if rng.integers(40) == 0:   # another shape now and then
            changed.append(np.int64(1))
        args = tuple(changed)
        types, values = block.update(args)
        assert (types, values.tolist()) == flatten(args)
        if kept_types is not None and types == kept_types:
            assert types is kept_types   # kept when no type changed
        kept_types = types
    with pytest.raises(launching._NotFlat):
        block.update(args[:-1] + (np.zeros(2),))
    assert block.update(args)[1].tolist() == flatten(args)[1]   # whole again after the refusal


def test_a_parameter_block_rewrites_a_zero_whose_sign_changed():
    block = ParameterBlock()
    block.update((np.float64(0.0), np.float32(0.0), 1))
    args = (np.float64(-0.0), np.float32(-0.0), 1)
    assert block.update(args)[1].tolist() == flatten(args)[1]


def test_a_rewrite_interrupted_midway_leaves_no_stale_parameters(monkeypatch):
    block = ParameterBlock()
    first = (np.int64(1), np.int64(2))
    block.update(first)
    calls = []

    def interrupted(self, item, *place):
        calls.append(item)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(self, item, *place)

    real = ParameterBlock._write
    monkeypatch.setattr(ParameterBlock, "_write", interrupted)
    with pytest.raises(KeyboardInterrupt):
        block.update((np.int64(5), np.int64(6)))   # 5 written, then interrupted
    monkeypatch.undo()
    assert block.update(first)[1].tolist() == [1, 2]


def test_host_arrays_and_other_scalars_are_not_flattened():
    for odd in (np.zeros(3), np.float16(1), 1j):
        with pytest.raises(launching._NotFlat):
            parameters((odd,))


@cuda.jit
def _mixed(out, pair, small, big, scale, flag, half, bits):
    i = cuda.grid(1)
    if i < out.shape[1]:
        a, b = pair
        out[0, i] = a[i] + b[i] * small
        out[1, i] = (scale * half) if flag else -1.0
    if i == 0:
        bits[0] = big >> 60   # the top bits of a uint64 above 2**63


@cuda.jit
def _two_phases(a, b):
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, a.shape[0], stride):
        a[i] = i
    cuda.cg.this_grid().sync()
    for i in range(start, a.shape[0], stride):
        b[i] = a[i] + a[a.shape[0] - 1 - i]


def _mixed_arguments():
    n = 1000
    a, b = cuda.to_device(np.arange(n, dtype=np.float64)), cuda.to_device(np.ones(n))
    return (cuda.device_array((2, n)), (a, b), np.int32(-3), np.uint64(2**63 + 5),
            np.float32(0.5), True, 3.0, cuda.device_array(1, dtype=np.uint64))


def test_a_launch_with_arrays_tuples_and_scalars_equals_numbas():
    ours, theirs = _mixed_arguments(), _mixed_arguments()
    launch(_mixed, 4, 256, ours)
    _mixed[4, 256](*theirs)
    got, expected = ours[0].copy_to_host(), theirs[0].copy_to_host()
    assert np.array_equal(got, expected)
    assert got[0, 10] == 10 - 3 and got[1, 0] == 1.5
    assert ours[-1].copy_to_host()[0] == theirs[-1].copy_to_host()[0] == 8


def test_a_cooperative_launch_syncs_the_grid():
    a, b = cuda.device_array(3000, dtype=np.int64), cuda.device_array(3000, dtype=np.int64)
    blocks = cooperative_blocks(_two_phases, (a, b), 3000)
    launch(_two_phases, blocks, 256, (a, b))
    assert (b.copy_to_host() == 2999).all()


@pytest.mark.gpu
def test_the_function_is_kept_per_argument_types():
    a, b = cuda.device_array(300, dtype=np.int64), cuda.device_array(300, dtype=np.int64)
    launch(_two_phases, 1, 256, (a, b))
    keys = [key for key in launching._FUNCTIONS if key[0] is _two_phases]
    assert len(keys) == 1 and launching._FUNCTIONS[keys[0]] is not None


class _StubDriver:
    """Stands in for the driver's launch calls: reads the parameters through the pointer
    array, as the driver does, while the call lasts (``during``: run inside it)."""

    def __init__(self, monkeypatch, during=None):
        from cuda.bindings import driver

        self.calls, self.during = [], during
        monkeypatch.setattr(driver, "cuLaunchCooperativeKernel", self._cooperative)
        monkeypatch.setattr(driver, "cuLaunchKernel", self._plain)
        monkeypatch.setattr(launching, "SIMULATOR", False)
        self.success = driver.CUresult.CUDA_SUCCESS

    def _cooperative(self, handle, gx, gy, gz, bx, by, bz, shared, stream, pointers):
        return self._read("cooperative", handle, pointers)

    def _plain(self, handle, gx, gy, gz, bx, by, bz, shared, stream, pointers, extra):
        return self._read("plain", handle, pointers)

    def _read(self, kind, handle, pointers):
        import ctypes

        if self.during is not None:
            self.during()
        count = self.count
        addresses = np.frombuffer((ctypes.c_int64 * count).from_address(pointers), np.int64)
        values = [ctypes.c_int64.from_address(int(a)).value for a in addresses]
        self.calls.append((kind, handle, pointers, addresses.copy(), values))
        return (self.success,)


def _launch_with_fake_function(monkeypatch, kernel, args, cooperative=True):
    """Launch ``kernel`` on ``args`` through a kept fake compiled function; returns the
    parameters that ``np.array(values, np.int64)`` gave before the slots."""
    types, values = flatten(args)
    monkeypatch.setitem(launching._FUNCTIONS, (kernel, types), ("handle", cooperative, 0))
    launch(kernel, 2, 64, args)
    return np.array(values, np.int64)


def _slot_arguments(scalar):
    return (_DeviceLike((2, 3), np.float32, 4096), (np.int32(scalar), 2**63 + 1), 0.5,
            _DeviceLike((5,), np.int64, 8192), True)


def test_the_parameters_go_through_this_threads_slots(monkeypatch):
    stub, kernel = _StubDriver(monkeypatch), object()
    stub.count = len(flatten(_slot_arguments(-7))[1])
    first = _launch_with_fake_function(monkeypatch, kernel, _slot_arguments(-7))
    second = _launch_with_fake_function(monkeypatch, kernel, _slot_arguments(9))
    plain = _launch_with_fake_function(monkeypatch, object(), _slot_arguments(3), False)
    (kind, handle, pointers, addresses, values), again, other = stub.calls
    assert kind == "cooperative" and handle == "handle" and other[0] == "plain"
    assert values == first.tolist() and again[4] == second.tolist() != values
    assert other[4] == plain.tolist()
    assert (np.diff(addresses) == 8).all()                 # consecutive 8-byte slots
    assert again[2] == pointers and (again[3] == addresses).all()   # the same slots reused


def test_a_kept_function_skips_the_lookup(monkeypatch):
    stub, args = _StubDriver(monkeypatch), _slot_arguments(1)
    stub.count = len(flatten(args)[1])
    monkeypatch.setattr(launching, "kernel_function", None)   # a lookup would raise
    launch(object(), 1, 32, args, flatten(args), ("kept", True, 0))
    assert stub.calls[0][1] == "kept" and stub.calls[0][4] == flatten(args)[1]


def test_threads_launch_through_their_own_slots(monkeypatch):
    """One thread's launch waits inside the driver call while another launches: each
    driver call still reads its own parameters."""
    import threading

    inside, other_done = threading.Event(), threading.Event()

    def wait_in_the_first_call():
        if not inside.is_set():
            inside.set()
            assert other_done.wait(10)

    stub, kernel = _StubDriver(monkeypatch, during=wait_in_the_first_call), object()
    stub.count = len(flatten(_slot_arguments(0))[1])
    expected = {}

    def first():
        expected["first"] = _launch_with_fake_function(monkeypatch, kernel, _slot_arguments(1))

    thread = threading.Thread(target=first)
    thread.start()
    assert inside.wait(10)
    expected["second"] = _launch_with_fake_function(monkeypatch, kernel, _slot_arguments(2))
    other_done.set()
    thread.join(10)
    second, first = stub.calls   # the second thread's call returned first
    assert first[4] == expected["first"].tolist() and second[4] == expected["second"].tolist()
    assert first[2] != second[2]
