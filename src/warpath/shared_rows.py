"""Result matrices that other processes on this host write rows into: one file per stripe.

Dask workers on the client's host hand their rows over by writing them into
files that the client has mapped (``warpath.distributed``, ``transfer="shared"``).
Linux serialises the writes into one file (each ``pwrite`` holds the file's
lock, and every new page goes into the one file's page cache), so two workers
writing into one matrix file take turns.  Measured on the CI box (2 cores,
``/dev/shm``, 2 GiB per writer in 64 MiB pieces): one writer 1.4-1.6 GB/s, two
writers into one file 0.85-0.96 GB/s together, two writers into a file each
3.6-3.9 GB/s together.  On the two-H200 host one file held the whole hand-over
to ~3.5 GB/s whatever the number of GPUs (docs/performance.md, issue 18).

So :func:`striped_matrix` makes the matrix from one file per *stripe* of
:data:`STRIPE_BYTES` (a whole number of pages; a row may run from one file into
the next) and maps the files side by side into one range of addresses: the
client holds one ordinary C-ordered ``ndarray`` over them, and writers of
different rows write different files.  :class:`RowFiles` says where each row's
bytes live (it also describes one ``.npy`` file, for ``out=``);
:meth:`RowFiles.pieces` splits a block of rows at the files' edges and
:func:`write_piece` puts one piece in place.  :class:`Preallocation` allocates
the files' pages in a background thread, ahead of the writers.

Examples
--------
>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> matrix = striped_matrix((5, PAGE // 4), np.int32, folder, stripe_bytes=2 * PAGE)
>>> len(matrix.paths)                             # rows of one page, two rows a file
3
>>> matrix.files.write(1, np.ones((2, PAGE // 4), dtype=np.int32))
>>> matrix.unlink()                               # the map keeps the rows
>>> matrix.array.sum(axis=1).tolist() == [0, PAGE // 4, PAGE // 4, 0, 0], os.listdir(folder)
(True, [])
>>> os.rmdir(folder)
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import mmap
import os
import shutil
import sys
import tempfile
import threading
import weakref

import numpy as np

#: Bytes of one stripe file (rounded up to whole pages): 597 files for the 40 GB int32
#: matrix of a 100,000-vertex APSP, small enough that two batches rarely write one file at
#: once, whatever the row length.
STRIPE_BYTES = 64 * 2**20
#: At most this many stripe files (and maps) per matrix: larger matrices get larger stripes,
#: well inside Linux's default limit of 65,530 maps per process.
MAX_STRIPES = 4096

PAGE = mmap.PAGESIZE
# Linux's values (the same on every architecture it runs on); Python's mmap module
# exports neither and cannot map at an address.
_PROT_NONE = 0
_MAP_FIXED = 0x10


def supported() -> bool:
    """Whether :func:`striped_matrix` works here: Linux (mapping files at chosen addresses).

    Examples
    --------
    >>> supported() == sys.platform.startswith("linux")
    True
    """
    return sys.platform.startswith("linux") and hasattr(mmap, "MAP_ANONYMOUS")


@dataclasses.dataclass(frozen=True)
class RowFiles:
    """Where the rows of a C-ordered matrix live on this host: in one file, or in stripes.

    The matrix's bytes from row 0 on are cut into files of ``stripe_bytes``
    (:meth:`path_of`); byte ``b`` of the matrix is at ``offset + b %
    stripe_bytes`` of file ``b // stripe_bytes``, so a row may run from one file
    into the next.  ``stripe_bytes == 0`` means one file (``path`` itself) holds
    every row.  Small enough to send with every task.

    Examples
    --------
    >>> files = RowFiles("/dev/shm/m", offset=0, row_bytes=400, stripe_bytes=4096)
    >>> files.path_of(3)
    '/dev/shm/m-000003'
    >>> files.pieces(8, 5)   # (file, byte position in it, first byte of the block, bytes)
    [('/dev/shm/m-000000', 3200, 0, 896), ('/dev/shm/m-000001', 0, 896, 1104)]
    >>> RowFiles("d.npy", offset=128, row_bytes=400).pieces(8, 5)
    [('d.npy', 3328, 0, 2000)]
    """

    path: str
    offset: int
    row_bytes: int
    stripe_bytes: int = 0

    def path_of(self, stripe: int) -> str:
        """The file of stripe ``stripe`` (``path`` itself when one file holds every row)."""
        return self.path if self.stripe_bytes == 0 else f"{self.path}-{stripe:06d}"

    def pieces(self, start: int, count: int) -> list[tuple[str, int, int, int]]:
        """The bytes of rows ``start .. start + count - 1``, split where they cross from one
        file to the next: ``(file, byte position in it, first byte of the piece in the
        block, bytes)``."""
        first, end = start * self.row_bytes, (start + count) * self.row_bytes
        if self.stripe_bytes == 0:
            return [(self.path, self.offset + first, 0, end - first)] if end > first else []
        pieces, at = [], first
        while at < end:
            stripe, within = divmod(at, self.stripe_bytes)
            size = min(end - at, self.stripe_bytes - within)
            pieces.append((self.path_of(stripe), self.offset + within, at - first, size))
            at += size
        return pieces

    def write(self, start: int, rows: np.ndarray) -> None:
        """Put ``rows`` (C-ordered, ``row_bytes`` each) at row ``start``, piece by piece."""
        data = as_bytes(rows)
        for path, position, first, size in self.pieces(start, rows.shape[0]):
            write_piece(path, position, data[first:first + size])


def as_bytes(rows: np.ndarray) -> memoryview:
    """The bytes of ``rows`` (C-ordered; copied only if they are not) as a flat memoryview.

    Examples
    --------
    >>> as_bytes(np.arange(3, dtype=np.int16)).nbytes
    6
    """
    return memoryview(np.ascontiguousarray(rows)).cast("B")


def write_piece(path: str, position: int, data) -> None:
    """Write ``data`` (a C-contiguous buffer: :func:`as_bytes`, a uint8 array) into the
    existing file ``path`` at byte ``position``.

    ``pwrite`` rather than a memory map: the kernel copies into the file's pages
    without a page fault per 4 KiB page (twice as fast into fresh shared memory).

    Raises
    ------
    FileNotFoundError
        When this process cannot see ``path`` (another host, another container).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile() as f:
    ...     _ = f.truncate(8)
    ...     write_piece(f.name, 4, as_bytes(np.array([7], dtype=np.int32)))
    ...     np.fromfile(f.name, dtype=np.int32).tolist()
    [0, 7]
    """
    data = memoryview(data).cast("B")
    fd = os.open(path, os.O_WRONLY)
    try:
        while data:  # a pwrite may write less than asked (on Linux at most 2 GiB)
            written = os.pwrite(fd, data, position)
            data, position = data[written:], position + written
    finally:
        os.close(fd)


def stripe_size(stripe_bytes: int) -> int:
    """Bytes of a stripe file: ``stripe_bytes`` rounded up to whole pages (at least one),
    so the files map side by side.

    Examples
    --------
    >>> stripe_size(1) == PAGE, stripe_size(3 * PAGE) == 3 * PAGE
    (True, True)
    """
    return max(PAGE, _round_up(int(stripe_bytes), PAGE))


class StripedMatrix:
    """A matrix whose stripes of rows are files of ``folder`` mapped into one address range.

    Made by :func:`striped_matrix`.  ``array`` is the matrix (an ``ndarray``
    that other processes' writes into the files show through), ``files`` the
    :class:`RowFiles` to hand to them, ``paths`` the stripe files.  The
    mapping lives as long as ``array`` and its views do; :meth:`unlink`
    removes the files (and their folder) but not the rows.
    """

    def __init__(self, array, files, paths, folder):
        self.array, self.files, self.paths, self._folder = array, files, paths, folder

    def unlink(self) -> None:
        """Remove the stripe files and their folder; the mapped rows stay readable."""
        for path in self.paths:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
        with contextlib.suppress(FileNotFoundError):
            os.rmdir(self._folder)
        self.paths = []


def striped_matrix(shape, dtype, folder, *, stripe_bytes=None) -> StripedMatrix:
    """A new ``shape`` matrix of ``dtype`` in files of a new folder under ``folder``, one per
    stripe of bytes, mapped side by side so the caller sees one C-ordered ``ndarray``.

    Stripes of ``stripe_bytes`` (:data:`STRIPE_BYTES` by default), rounded up
    to whole pages (:func:`stripe_size`), and larger when the matrix would need
    more than :data:`MAX_STRIPES` files.  The files are sparse (no page is
    allocated before it is written or preallocated), so entries nobody wrote
    read as zero.

    Raises
    ------
    OSError
        When the address range, the files or the maps cannot be made (no memory, a full
        or read-only folder); nothing is left behind.

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> m = striped_matrix((3, 1000), np.int64, folder, stripe_bytes=PAGE)
    >>> len(m.paths) == -(-3 * 1000 * 8 // PAGE), m.array.shape, int(m.array.sum())
    (True, (3, 1000), 0)
    >>> m.unlink(); os.rmdir(folder)
    """
    dtype = np.dtype(dtype)
    rows, cols = (int(x) for x in shape)
    total = _round_up(max(1, rows * cols * dtype.itemsize), PAGE)
    span = stripe_size(max(STRIPE_BYTES if stripe_bytes is None else stripe_bytes,
                           -(-total // MAX_STRIPES)))
    base = _map(None, total, _PROT_NONE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1)
    directory, paths = None, []
    try:
        directory = tempfile.mkdtemp(prefix="warpath-", dir=folder)
        files = RowFiles(os.path.join(directory, "rows"), 0, cols * dtype.itemsize, span)
        for stripe in range(-(-total // span)):
            length = min(span, total - stripe * span)
            path = files.path_of(stripe)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            paths.append(path)
            try:
                os.ftruncate(fd, length)
                _map(base + stripe * span, length, mmap.PROT_READ | mmap.PROT_WRITE,
                     mmap.MAP_SHARED | _MAP_FIXED, fd)
            finally:
                os.close(fd)
        memory = (ctypes.c_char * total).from_address(base)
        # Not at exit: threads that outlive the interpreter's shutdown may still read it.
        weakref.finalize(memory, _libc().munmap, base, total).atexit = False
    except BaseException:
        _libc().munmap(base, total)
        if directory is not None:
            StripedMatrix(None, None, paths, directory).unlink()
        raise
    array = np.frombuffer(memory, dtype=dtype, count=rows * cols).reshape(rows, cols)
    return StripedMatrix(array, files, paths, directory)


class Preallocation:
    """Allocates the pages of new files in a background thread, while others write rows.

    A write into pages that exist is a plain copy; into a hole the kernel
    allocates and zeroes each page first (half the speed: 144 MB in 0.024
    against 0.051 s on the CI box).  The ``fallocate`` system call changes no
    data, so it may run beside the writers (not glibc's ``posix_fallocate``,
    which writes zeros where the file system has no ``fallocate``: then this
    does nothing); by blocks of ``BLOCK`` bytes, since each call locks the file
    against their writes.  Files in order, the order batches of rows are
    handed out.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile() as f:
    ...     _ = f.truncate(3 * 2**20)
    ...     ahead = Preallocation([f.name])
    ...     ahead.stop(wait_for_all=True)
    ...     os.stat(f.name).st_blocks * 512 >= 3 * 2**20
    True
    """

    BLOCK = 64 * 2**20

    def __init__(self, paths):
        self._stopping = threading.Event()
        self._thread = None
        if paths and hasattr(_libc(), "fallocate"):
            self._thread = threading.Thread(target=self._run, args=(list(paths),), daemon=True,
                                            name="warpath-allocate")
            self._thread.start()

    def _run(self, paths):
        for path in paths:
            try:
                fd = os.open(path, os.O_RDWR)
            except FileNotFoundError:
                return  # unlinked: the run is over
            try:
                size = os.fstat(fd).st_size
                for offset in range(0, size, self.BLOCK):
                    if self._stopping.is_set():
                        return
                    if _libc().fallocate(fd, 0, offset, min(self.BLOCK, size - offset)):
                        return  # a full /dev/shm (the writers then fail and say so), or
                        # a file system without fallocate
            finally:
                os.close(fd)

    def stop(self, wait_for_all: bool = False) -> None:
        """Stop allocating (after the files in hand, with ``wait_for_all``) and join."""
        if not wait_for_all:
            self._stopping.set()
        if self._thread is not None:
            self._thread.join()


def shared_folder(nbytes: int) -> str:
    """Where shared result files go: ``/dev/shm`` (memory) when it has room for ``nbytes``,
    else the system's temporary folder (a disk's page cache: slower when the kernel writes
    it out).

    Examples
    --------
    >>> os.path.isdir(shared_folder(1))
    True
    """
    if os.path.isdir("/dev/shm") and shutil.disk_usage("/dev/shm").free > nbytes:
        return "/dev/shm"
    return tempfile.gettempdir()


def _round_up(value: int, unit: int) -> int:
    return -(-value // unit) * unit


_LIBC = None


def _libc():
    """The C library's ``mmap``, ``munmap`` and ``fallocate``, typed (loaded on first use)."""
    global _LIBC
    if _LIBC is None:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                              ctypes.c_int, ctypes.c_long]
        libc.munmap.restype = ctypes.c_int
        libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        if hasattr(libc, "fallocate"):  # Linux's
            libc.fallocate.restype = ctypes.c_int
            libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64,
                                       ctypes.c_int64]
        _LIBC = libc
    return _LIBC


def _map(address, length, protection, flags, fd) -> int:
    """``mmap(address, length, protection, flags, fd, 0)``, its address or an ``OSError``."""
    result = _libc().mmap(address, length, protection, flags, fd, 0)
    if result is None or result == ctypes.c_void_p(-1).value:
        error = ctypes.get_errno()
        raise OSError(error, f"mmap of {length:,} bytes failed: {os.strerror(error)}")
    return result
