"""``rfc1738 check --jsonl``: one JSON record a line, a block of the input at a time.

Each line is matched once, the lines of a block by scheme
(:func:`~rfc1738.runtime.bulk.match_blocks`), a valid line's fields written
straight from its match (:func:`~rfc1738.output.jsonl.members_writer`), an
invalid line's error worked out without raising it
(:func:`~rfc1738.runtime.bulk.line_error`); each block's records are put
back in the order of its lines.

The records of a block depend on nothing but its lines, so on Linux, with
more than one core to run on and an input of at least
:data:`PARALLEL_BYTES`, the blocks are written by worker processes (forked,
one a core, at most :data:`MAX_WORKERS`) while this process reads the next
blocks and writes the records in the order of the lines: the same bytes,
the same exit status. Each worker holds :data:`SLOTS` blocks of at most
:data:`CHUNK` bytes with their records, and this process as many blocks, so
memory does not grow with the input. A worker that ends before it has
answered (killed, out of memory) is said on stderr, and this process
writes its blocks and the rest itself. Elsewhere, on one core or for a
smaller input, this process writes every record.
"""

from __future__ import annotations

import errno
import gc
import io
import json
import os
import signal
import stat
import struct
from collections import deque
from collections.abc import Generator, Iterator
from contextlib import contextmanager, suppress
from json.encoder import encode_basestring_ascii as quoted
from typing import BinaryIO, TextIO

from ..output.jsonl import MembersWriter, members_json, members_writer
from ..runtime.bulk import line_error, match_blocks
from ..urls import Grammar
from .output import Refusals, error_json, not_utf8_dict, say

__all__ = ["CHUNK", "MAX_WORKERS", "PARALLEL_BYTES", "SLOTS", "RecordWriter", "write_records"]

#: How many bytes of the input make one block for a worker (at most; cut
#: after a line ending): some 10,000 lines of the benchmark's, a few MiB of records.
CHUNK = 512 << 10

#: From how many bytes of input (the file's size, or what a pipe has given
#: so far) the records are written by worker processes. A fork takes half a
#: millisecond, but each worker makes its writers again, and on a busy
#: machine the workers cost some 10% more processor time than one process:
#: on 2 idle cores 1 MiB of the benchmark's lines gained 9%, 2 MiB 18%
#: (docs/performance.md).
PARALLEL_BYTES = 2 << 20

#: At most how many workers run, whatever the cores: each holds :data:`SLOTS`
#: blocks and their records (some 10 MiB), and this process hands every
#: block out and every block's records on (measured on 2 cores only).
MAX_WORKERS = 8

#: How many more containers made than freed set the collector off in the --jsonl loop.
_COLLECT_AFTER = 50_000


class RecordWriter:
    """Writes the records of blocks of lines, keeping what it worked out from block to block.

    ``invalid`` and ``too_long`` count the lines written so far that were
    invalid, or too long for the reference parser to judge.
    """

    def __init__(self, grammar: Grammar, host_checks: bool, refusals: Refusals) -> None:
        self.grammar = grammar
        self.host_checks = host_checks
        self.refusals = refusals
        self.invalid = 0
        self.too_long = 0
        #: Each scheme's writer of a valid line's fields, made when first met.
        self.writers: dict[str, MembersWriter] = {}

    def pieces(self, chunk: bytes, start: int) -> Iterator[str]:
        """The records of the lines of ``chunk``, numbered from ``start``: a text a block.

        ``chunk`` holds whole lines (the last one's ending may be missing).
        """
        grammar, host_checks, writers = self.grammar, self.host_checks, self.writers
        first = start  # the number of the block's first line
        for block in match_blocks(grammar, io.BytesIO(chunk), host_checks=host_checks, start=start):
            records = [""] * len(block)
            for number, text, scheme, valid, match in block:
                # The text as json.dumps writes a str (what json_value calls for one).
                written = quoted(text)
                verdict = "true" if valid else "false"
                if match is not None:
                    write = writers.get(scheme)
                    if write is None:
                        write = writers[scheme] = members_writer(
                            grammar.url_class(scheme),
                            grammar.engine(scheme).fields,
                            grammar=grammar,
                            host_checks=host_checks,
                        )
                    fields = write(text, match, len(written) == len(text) + 2)
                elif valid:  # a scheme no expression serves
                    fields = members_json(grammar.parse(text, host_checks=host_checks))
                else:
                    verdict, error = self._error(text, scheme)
                    if verdict == "null":
                        self.too_long += 1
                    else:
                        self.invalid += 1
                    fields = f'"error": {error}'
                records[number - first] = (
                    f'{{"line": {number}, "text": {written}, "valid": {verdict}, {fields}}}\n'
                )
            first += len(block)
            yield "".join(records)
            del block, records  # before the next block is matched

    def _error(self, text: str, scheme: str) -> tuple[str, str]:
        """An invalid line's verdict (``false``; ``null``: too long to judge) and error, as JSON."""
        encoding = not_utf8_dict(text)
        if encoding is not None:
            return "false", json.dumps(encoding)
        error = line_error(self.grammar, text, host_checks=self.host_checks, scheme=scheme)
        refused = self.refusals.too_long(text, error, scheme)
        if refused is not None:
            return "null", error_json(refused)
        return "false", error_json(error)


def write_records(
    writer: RecordWriter, stream: BinaryIO, out: TextIO
) -> Generator[tuple[int, int, int], None, None]:
    """Write the record of each line of ``stream`` to ``out``, in the order of the lines.

    After each block written: how many lines so far, and how many of the
    block's lines were invalid and too long to judge. Close the iterator
    (``contextlib.closing``) to end the worker processes if it is left early.
    """
    cores = min(_cores(), MAX_WORKERS) if hasattr(os, "memfd_create") and _has_fd(out) else 1
    size = _size(stream)
    workers: _Workers | None = None
    held: deque[tuple[bytes, int, int]] = deque()  # the blocks the workers hold, oldest first
    read = done = 0
    start = 1  # the number of the next block's first line
    with _collected_less_often():
        try:
            for chunk in _chunks(stream):
                lines = chunk.count(b"\n") + (not chunk.endswith(b"\n"))
                read += len(chunk)
                if workers is None and cores > 1 and max(size, read) >= PARALLEL_BYTES:
                    out.flush()  # nothing buffered to copy into the workers, or to write twice
                    count, cores = cores, 1  # once: workers that broke are not started again
                    with suppress(OSError):  # (none could start: this process goes on)
                        workers = _Workers(count, writer)
                if workers is not None and len(held) == workers.capacity:
                    # The oldest block's worker is the one the next block goes to.
                    answer = workers.receive(len(held))
                    if answer is not None:
                        done += held.popleft()[2]
                        yield _written(answer, out, done)
                if workers is not None and workers.failed is None and workers.send(chunk, start):
                    held.append((chunk, start, lines))
                else:
                    _broken(workers)
                    workers = None
                    held.append((chunk, start, lines))
                    while held:  # what the workers held, then this block: here
                        done += held[0][2]
                        yield _inline(writer, *held.popleft()[:2], out, done)
                start += lines
            while held:
                answer = None if workers is None else workers.receive(len(held))
                if answer is None:
                    _broken(workers)
                    workers = None
                    done += held[0][2]
                    yield _inline(writer, *held.popleft()[:2], out, done)
                else:
                    done += held.popleft()[2]
                    yield _written(answer, out, done)
        finally:
            if workers is not None:
                workers.close(finished=not held)


def _inline(
    writer: RecordWriter, chunk: bytes, start: int, out: TextIO, done: int
) -> tuple[int, int, int]:
    """Write the records of ``chunk`` in this process."""
    invalid, too_long = writer.invalid, writer.too_long
    for piece in writer.pieces(chunk, start):
        out.write(piece)
    return done, writer.invalid - invalid, writer.too_long - too_long


def _written(answer: tuple[int, int, int, int], out: TextIO, done: int) -> tuple[int, int, int]:
    """Write a worker's records of a block to ``out`` (its file descriptor), after what is buffered.

    From the memory file to the output in the kernel (``sendfile``), not
    through a string here; by reads where the output does not take that (a
    file open to append).
    """
    records, size, invalid, too_long = answer
    out.flush()  # what this process wrote itself goes first
    target = out.fileno()
    offset = 0
    while offset < size:
        try:
            offset += os.sendfile(target, records, offset, size - offset)
        except OSError as error:
            if error.errno not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
                raise  # a reader gone away (EPIPE), a full disk: as for any output
            break
    while offset < size:
        data = os.pread(records, min(size - offset, _COPIED), offset)
        offset += len(data)
        out.buffer.write(data)
    out.buffer.flush()
    return done, invalid, too_long


#: How many bytes are copied at a time where the output does not take ``sendfile``.
_COPIED = 1 << 20


def _broken(workers: _Workers | None) -> None:
    """End the workers after one of them ended before it answered: this process goes on."""
    if workers is not None:
        why = workers.close(finished=False)
        say(f"a worker process ended ({why}): this process writes the rest of the records")


def _chunks(stream: BinaryIO) -> Iterator[bytes]:
    """The input, up to :data:`CHUNK` bytes at a time, each cut after a line ending.

    ``read1`` where there is one: what has arrived, from a pipe, so that
    records come as their lines do.
    """
    read = getattr(stream, "read1", None) or stream.read
    rest = b""
    while block := read(CHUNK):
        block = rest + block if rest else block
        cut = block.rfind(b"\n") + 1
        if cut == len(block):
            rest = b""
            yield block
        elif cut:
            rest = block[cut:]
            yield block[:cut]
        else:
            rest = block
    if rest:
        yield rest


def _has_fd(out: TextIO) -> bool:
    """Whether ``out`` writes to a file descriptor, through a binary buffer (as stdout does)."""
    try:
        out.fileno()
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
        return False
    return hasattr(out, "buffer")


def _size(stream: BinaryIO) -> int:
    """The size of ``stream`` if it is a regular file (else 0: a pipe, a terminal)."""
    try:
        found = os.fstat(stream.fileno())
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
        return 0
    return found.st_size if stat.S_ISREG(found.st_mode) else 0


def _cores() -> int:
    """How many cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@contextmanager
def _collected_less_often() -> Iterator[None]:
    """Run the cyclic garbage collector less often, for a loop over many lines.

    The ``--jsonl`` loop keeps a block of lines with their matches while it
    writes their records, and makes and frees several small containers a
    line. At the default threshold (700 more containers made than freed)
    the collector looks at each block's objects many times over and, now
    and then, at every object of the process: some 7% of the time of the
    loop (``docs/performance.md``), which makes no cycles of its own. Here the collector runs
    after :data:`_COLLECT_AFTER` instead; it still runs (in the workers too,
    which inherit the setting).
    """
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], _COLLECT_AFTER), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


# ---- the worker processes ----

#: How many blocks each worker holds at once: one it works on, one waiting,
#: so that it does not wait for this process between blocks.
SLOTS = 2

#: A block given to a worker: its slot, the number of its first line, its size in bytes.
_TASK = struct.Struct("<qqq")
#: A worker's answer for a block: the size of its records, how many of its
#: lines were invalid and too long to judge.
_ANSWER = struct.Struct("<qqq")


class _Workers:
    """Forked processes writing the records of blocks; block ``k`` goes to worker ``k % count``.

    The blocks and their records go through memory files (``memfd``), two
    a slot, :data:`SLOTS` slots a worker; the pipes carry only which slot
    and how long, a few bytes, so neither side ever waits on the other to
    write. A slot is given a new block only once its records were read.
    """

    def __init__(self, count: int, writer: RecordWriter) -> None:
        self.count = count
        self.pids: list[int] = []
        self.tasks: list[int] = []  # each worker's pipe of tasks, its end here
        self.answers: list[BinaryIO] = []  # each worker's pipe of answers, its end here
        #: Each worker's slots: the memory files of a block and of its records.
        self.slots: list[list[tuple[int, int]]] = []
        self.sent = 0  # how many blocks were sent
        self.failed: int | None = None  # the worker that ended before it answered
        try:
            for _ in range(count):
                self._start(writer)
        except BaseException:
            self.close(finished=False)
            raise

    @property
    def capacity(self) -> int:
        """How many blocks the workers hold at most."""
        return self.count * SLOTS

    def _start(self, writer: RecordWriter) -> None:
        slots = [(os.memfd_create("block"), os.memfd_create("records")) for _ in range(SLOTS)]
        self.slots.append(slots)
        task_in, task_out = os.pipe()
        answer_in, answer_out = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker: it never returns from here
            status = 1
            try:
                others = [task_out, answer_in, *self.tasks, *(a.fileno() for a in self.answers)]
                others += [fd for worker in self.slots[:-1] for slot in worker for fd in slot]
                _serve(writer, task_in, answer_out, slots, others)
                status = 0
            finally:
                os._exit(status)
        os.close(task_in)
        os.close(answer_out)
        self.pids.append(pid)
        self.tasks.append(task_out)
        self.answers.append(open(answer_in, "rb"))  # noqa: SIM115 (closed by close)

    def send(self, chunk: bytes, start: int) -> bool:
        """Give the next block to its worker; ``False`` if the worker is gone."""
        index, slot = self.sent % self.count, self.sent // self.count % SLOTS
        block = self.slots[index][slot][0]
        try:
            os.pwrite(block, chunk, 0)
            os.write(self.tasks[index], _TASK.pack(slot, start, len(chunk)))
        except OSError:  # a broken pipe: the worker ended
            self.failed = index
            return False
        self.sent += 1
        return True

    def receive(self, held: int) -> tuple[int, int, int, int] | None:
        """The answer to the oldest of the ``held`` blocks sent; ``None`` if its worker ended.

        The memory file of its records (from its start), their size, and
        how many of the block's lines were invalid and too long to judge.
        """
        oldest = self.sent - held
        index, slot = oldest % self.count, oldest // self.count % SLOTS
        try:
            answer = self.answers[index].read(_ANSWER.size)
        except OSError:
            answer = b""
        if len(answer) < _ANSWER.size:
            self.failed = index
            return None
        size, invalid, too_long = _ANSWER.unpack(answer)
        return self.slots[index][slot][1], size, invalid, too_long

    def close(self, *, finished: bool) -> str:
        """End the workers (killed unless ``finished``, when each ends on its own).

        How the one that failed ended, if one did.
        """
        for fd in (*self.tasks, *(fd for worker in self.slots for slot in worker for fd in slot)):
            with suppress(OSError):
                os.close(fd)
        for file in self.answers:
            with suppress(OSError):
                file.close()
        self.tasks, self.answers, self.slots = [], [], []
        ended = []
        for pid in self.pids:
            if not finished:
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            ended.append(status)
        self.pids = []
        return "" if self.failed is None else _status(ended[self.failed])


def _status(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def _serve(
    writer: RecordWriter,
    task_in: int,
    answer_out: int,
    slots: list[tuple[int, int]],
    others: list[int],
) -> None:
    """A worker's loop: read a block, write its records, until the pipe of tasks closes."""
    # Ctrl-C is for the command: it ends the workers (the terminal sends it to them too).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for fd in others:  # the ends this worker does not use, so that each pipe closes when it should
        os.close(fd)
    # Nothing of the command's output is written here, nor is its input read.
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    tasks = open(task_in, "rb")  # noqa: SIM115 (the process ends with it)
    while True:
        task = tasks.read(_TASK.size)
        if len(task) < _TASK.size:
            return  # the command is done
        slot, start, size = _TASK.unpack(task)
        block, records = slots[slot]
        chunk = os.pread(block, size, 0)
        invalid, too_long = writer.invalid, writer.too_long
        written = 0
        for piece in writer.pieces(chunk, start):
            written += os.pwrite(records, piece.encode("ascii"), written)
        answer = _ANSWER.pack(written, writer.invalid - invalid, writer.too_long - too_long)
        os.write(answer_out, answer)
