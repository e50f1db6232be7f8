"""The table server: asyncio streams that move bytes between sockets and a TableHost.

Each connection has a reader (``readline`` on a stream opened with an explicit ``limit``)
and a writer task fed by a bounded queue; a client that stops reading fills its queue and
is disconnected. One clock task runs the host's timers. All game logic is in
:mod:`pokeroulette_tui.net.host`; nothing here parses a message.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.host import Out, TableHost
from pokeroulette_tui.net.identity import Account
from pokeroulette_tui.net.messages import Bye
from pokeroulette_tui.net.nettable import JournalWrite, write_groups

log = logging.getLogger("pokeroulette.net")

QUEUE_SIZE = 256
"""Messages waiting for one slow client before it is disconnected."""
AHEAD = 64
"""Clock steps of one table that may wait for the disk before the clock waits too."""
LANES = 4
"""Worker threads a group of journal writes is shared out over (their fsyncs side by side)."""
INLINE_WRITE = 0.010
"""A group of journal writes is written on the event loop itself while groups have been
taking less than this (seconds, a moving average): handing such a group to a thread and back
costs more CPU than the write, and the loop is held up less than by the hand-offs. Groups that
take longer (a slow disk, many journals at once) go to worker threads, so the loop never waits
on the disk for long."""


@dataclass(eq=False)
class _Step:
    """One host step waiting for its journal lines to be on disk before it is sent."""

    server: "Server"
    write: JournalWrite | None
    outs: list[Out]
    done: asyncio.Future[None]


class GroupCommit:
    """The journal writes of every table served on one event loop, written together.

    A step's lines join the group being gathered; once the steps that are ready have run
    (one turn of the loop: a dealer's step right after a player's joins it), worker threads
    write the whole group, each journal's lines in one ``write`` and one ``fdatasync`` per
    journal, while the loop goes on; then each step's messages are sent, in order, one write
    per connection for all of a table's steps in the group. At most :data:`LANES` thread
    hand-offs per group, whatever the number of tables or steps.
    """

    def __init__(self) -> None:
        self._batch: list[_Step] = []
        self._task: asyncio.Task[None] | None = None
        self.groups = 0   # writes to disk so far
        self.syncs = 0    # fdatasync calls so far (one per journal per group)
        self.threaded = 0  # groups handed to worker threads (the others: on the loop)
        self.write_time = 0.0  # a moving average of how long a group's writes take in all

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> "GroupCommit":
        """The one of this event loop."""
        gc = _GROUPS.get(loop)
        if gc is None:
            gc = _GROUPS[loop] = cls()
        return gc

    def add(self, step: _Step) -> None:
        self._batch.append(step)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="group-commit")

    async def _write(self, writes: list[JournalWrite]) -> dict[int, OSError]:
        """Write a group: on the loop itself while groups are quick (:data:`INLINE_WRITE`),
        else shared out over up to :data:`LANES` worker threads, so that their fdatasyncs run
        side by side (the file system commits them together) and a group takes about as long
        as one. Either way the time the writes take is measured, and decides the next."""
        if self.write_time < INLINE_WRITE:
            failed, took = _timed_write(writes)
            self._took(took)
            return failed
        self.threaded += 1
        lanes: dict[int, list[JournalWrite]] = {}
        index: dict[int, int] = {}
        for w in writes:  # each journal's writes stay together, in order, in one lane
            lane = index.setdefault(id(w.file), len(index) % LANES)
            lanes.setdefault(lane, []).append(w)
        failed = {}
        took = 0.0
        for part, lane_took in await asyncio.gather(*(asyncio.to_thread(_timed_write, ws)
                                                      for ws in lanes.values())):
            failed.update(part)
            took += lane_took  # what the loop would have waited, had it written them
        self._took(took)
        return failed

    def _took(self, seconds: float) -> None:
        self.write_time += (seconds - self.write_time) * 0.2

    async def _run(self) -> None:
        batch: list[_Step] = []
        try:
            while self._batch:
                await asyncio.sleep(0)  # the steps that are ready now join this group
                batch, self._batch = self._batch, []
                writes = [step.write for step in batch if step.write is not None]
                failed: dict[int, OSError] = {}
                if writes:
                    self.groups += 1
                    self.syncs += len({id(w.file) for w in writes if not w.start})
                    failed = await self._write(writes)
                by_server: dict[Server, list[_Step]] = {}
                for step in batch:
                    by_server.setdefault(step.server, []).append(step)
                batch = []
                for server, steps in by_server.items():
                    try:
                        server._committed(steps, failed)
                    except Exception:  # pragma: no cover - one table's bug stops no other
                        log.exception("internal error while sending committed steps")
        finally:
            self._task = None  # (an idle group holds nothing of its loop)
            for step in batch + self._batch:  # cancelled (the loop is closing): never strand
                step.server._waiting -= 1     # a waiter, but send nothing not written
                if not step.done.done():
                    step.done.set_result(None)
            self._batch = []


def _timed_write(writes: list[JournalWrite]) -> tuple[dict[int, OSError], float]:
    """:func:`write_groups`, and how long it took (runs in any thread)."""
    start = time.perf_counter()
    failed = write_groups(writes)
    return failed, time.perf_counter() - start


_GROUPS: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, GroupCommit]" = \
    weakref.WeakKeyDictionary()


@dataclass(eq=False)
class _Connection:
    cid: int
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    queue: asyncio.Queue[bytes | None]
    peer: Any = None
    closing: bool = False
    gone: bool = False
    writer_task: asyncio.Task[None] | None = field(default=None, repr=False)


async def reap(task: asyncio.Task[Any]) -> None:
    """Cancel ``task`` and wait for it to end, without swallowing a cancellation of our own."""
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if current is not None and current.cancelling():
            raise
    except Exception:  # it failed while stopping: already logged where it happened
        pass


class Server:
    """Serve one TableHost on a TCP port or a Unix-domain socket.

    On a Unix socket each connection's account comes from the kernel: ``credentials(sock)``
    gives ``(pid, uid, gid)`` and ``accounts(uid)`` the Account (both injectable for tests).
    """

    def __init__(self, host: TableHost, *, limit: int = P.MAX_LINE, queue_size: int = QUEUE_SIZE,
                 close_timeout: float = 5.0,
                 credentials: Callable[[Any], tuple[int, int, int]] | None = None,
                 accounts: Callable[[int], Account] | None = None) -> None:
        self.host = host
        self.limit = limit
        self.queue_size = queue_size
        self.close_timeout = close_timeout
        self.conns: dict[int, _Connection] = {}
        self._ids = itertools.count(1)
        self._server: asyncio.base_events.Server | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._handlers: set[asyncio.Task[Any]] = set()
        self._waiting = 0  # steps of this table waiting for the disk (see GroupCommit)
        self.address: tuple[str, int] = ("", 0)
        self.unix_path: Path | None = None
        self._unix_ino: int | None = None
        self.credentials = credentials
        self.accounts = accounts
        self._known: dict[int, tuple[float, Account]] = {}  # uid -> (when looked up, account)
        host.defer()  # saves are written here, off the event loop, before what depends on them

    # -- life cycle -----------------------------------------------------------------
    async def start(self, bind: str = "127.0.0.1", port: int = 0,
                    ssl: Any = None) -> tuple[str, int]:
        """Listen (port 0 picks a free port; ``ssl``: a TLS server context); returns the
        address actually bound."""
        # a socket that never finishes the TLS handshake is not ours to count yet: it goes
        # as soon as one that never says hello would
        extra = {"ssl": ssl, "ssl_handshake_timeout": 5.0} if ssl is not None else {}
        self._server = await asyncio.start_server(self._handle, bind, port, limit=self.limit,
                                                  **extra)
        sock = self._server.sockets[0]
        self.address = sock.getsockname()[:2]
        self._clock_task = asyncio.create_task(self._clock(), name="table-clock")
        log.info("listening on %s:%s", *self.address)
        return self.address

    async def start_unix(self, path: Path, *, mode: int = 0o660, group: int | None = None) -> Path:
        """Listen on a Unix-domain socket at ``path`` (its folder must be prepared:
        :func:`pokeroulette_tui.net.unix.prepare_dir`), readable and writable per ``mode``."""
        from pokeroulette_tui.net import unix
        self.credentials = self.credentials or unix.peer_credentials
        self.accounts = self.accounts or unix.account_of
        self._server = await asyncio.start_unix_server(self._handle, path=str(path),
                                                       limit=self.limit)
        if group is not None and group >= 0:
            os.chown(path, -1, group)
        os.chmod(path, mode)
        self.unix_path = Path(path)
        self._unix_ino = os.lstat(path).st_ino
        self._clock_task = asyncio.create_task(self._clock(), name="table-clock")
        log.info("listening on %s", path)
        return self.unix_path

    def _peer(self, writer: asyncio.StreamWriter) -> Any:
        """Who is connecting: the Account the kernel names (Unix sockets) or the address."""
        if self.unix_path is None:
            return writer.get_extra_info("peername")
        try:
            __, uid, ___ = self.credentials(writer.get_extra_info("socket"))  # type: ignore[misc]
            now = self._now()
            cached = self._known.get(uid)
            if cached is None or now - cached[0] > 60:  # the user database may be remote
                cached = self._known[uid] = (now, self.accounts(uid))  # type: ignore[misc]
                if len(self._known) > 1024:
                    self._known.clear()
            return cached[1]
        except (OSError, KeyError, ValueError, TypeError) as exc:
            log.warning("cannot tell who connected: %s", exc)
            return None

    async def serve_forever(self) -> None:
        assert self._server is not None, "start() first"
        await self._server.serve_forever()

    async def close(self) -> None:
        """Stop listening, say goodbye to everyone, and wait for the connections to end."""
        if self._server is not None:
            self._server.close()
        for conn in list(self.conns.values()):
            self._send(conn, P.encode(Bye(_("the host closed the table")).to_wire()))
            self._finish(conn)
        if self._clock_task is not None:
            await reap(self._clock_task)
        await self._deliver([])  # the last journal lines, if any are pending
        if self.host.table is not None:
            self.host.table.close()
        if self._handlers:
            await asyncio.wait(self._handlers, timeout=self.close_timeout)
        for task in list(self._handlers):
            task.cancel()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), self.close_timeout)
        if self.unix_path is not None:  # remove our socket, and only ours
            with contextlib.suppress(OSError):
                if os.lstat(self.unix_path).st_ino == self._unix_ino:
                    os.unlink(self.unix_path)

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    # -- one connection ---------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
        cid = next(self._ids)
        conn = _Connection(cid, reader, writer, asyncio.Queue(self.queue_size),
                           peer=self._peer(writer))
        self.conns[cid] = conn
        conn.writer_task = asyncio.create_task(self._write_loop(conn), name=f"writer-{cid}")
        log.debug("connection %s from %s", cid, conn.peer)
        try:
            self._dispatch(self._call(self.host.connect, cid, self._now(), conn.peer))
            self._wake.set()  # the clock re-reads the host's next wake-up (the hello timeout)
            while not conn.closing:
                try:
                    line = await reader.readline()
                except ValueError:  # longer than the limit: refuse and close, never read its tail
                    self._dispatch(self._call(self.host.oversized, cid))
                    break
                except (ConnectionError, OSError):
                    break
                if not line.endswith(b"\n"):
                    break  # end of stream (a last line without a newline is never executed)
                outs = self._call(self.host.receive, cid, line, self._now())
                self._wake.set()  # a step now due (the dealer's) may join the same disk write
                await self._deliver(outs)
                await asyncio.sleep(0)  # a burst of lines must not starve the writers or others
        finally:
            self._drop(conn)
            try:
                if conn.writer_task is not None:  # let it flush what is queued, for a while
                    await asyncio.wait_for(asyncio.shield(conn.writer_task), self.close_timeout)
            except asyncio.TimeoutError:
                pass
            except asyncio.CancelledError:
                if task is not None and task.cancelling():
                    raise  # we are being cancelled: never swallow that
                # else the writer itself was cancelled (an aborted connection): nothing to do
            finally:
                if conn.writer_task is not None and not conn.writer_task.done():
                    conn.writer.transport.abort()
                    conn.writer_task.cancel()
                if task is not None:
                    self._handlers.discard(task)

    async def _write_loop(self, conn: _Connection) -> None:
        writer = conn.writer
        try:
            while True:
                data = await conn.queue.get()
                if data is None:
                    break
                chunks = [data]
                while not conn.queue.empty():  # write what is waiting in one go
                    more = conn.queue.get_nowait()
                    if more is None:
                        conn.queue.put_nowait(None)
                        break
                    chunks.append(more)
                writer.write(b"".join(chunks))
                await writer.drain()
        except (ConnectionError, OSError):
            pass  # reset mid-write: the reader sees the end too
        finally:
            conn.closing = True
            writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.wait_closed(), self.close_timeout)

    def _send(self, conn: _Connection, data: bytes) -> bool:
        if conn.gone or conn.closing or conn.writer.transport.is_closing():
            return False  # the peer is gone: the reader will see the end and drop it
        if conn.queue.empty() and conn.writer.transport.get_write_buffer_size() == 0:
            # nothing is waiting anywhere: hand it to the socket now (no task switch); the
            # order is kept, since the writer task has nothing in hand either
            try:
                conn.writer.write(data)
            except (ConnectionError, OSError, RuntimeError):
                self._abort(conn)
                return False
            return True
        try:
            conn.queue.put_nowait(data)
        except asyncio.QueueFull:
            log.warning("connection %s is not reading; disconnecting it", conn.cid)
            self._abort(conn)
            return False
        return True

    def _finish(self, conn: _Connection) -> None:
        """Close after what is queued has been written."""
        if conn.closing or conn.gone:
            return
        conn.closing = True
        try:
            conn.queue.put_nowait(None)
        except asyncio.QueueFull:
            self._abort(conn)

    def _abort(self, conn: _Connection) -> None:
        """Drop the connection at once (a slow reader): no more writes, no goodbye."""
        conn.closing = True
        conn.writer.transport.abort()
        if conn.writer_task is not None:
            conn.writer_task.cancel()
        self._drop(conn)

    def _drop(self, conn: _Connection) -> None:
        if conn.gone:
            return
        conn.gone = True
        self.conns.pop(conn.cid, None)
        self._dispatch(self._call(self.host.disconnect, conn.cid, self._now()))
        if not conn.closing:
            conn.closing = True
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
        self._wake.set()

    # -- the host's answers ---------------------------------------------------------------
    def _call(self, fn: Any, *args: Any) -> list[Out]:
        """Run one host step; a bug there costs one message, never the server."""
        try:
            return fn(*args)
        except Exception:
            log.exception("internal error in %s", getattr(fn, "__name__", fn))
            cid = args[0] if args and isinstance(args[0], int) else None
            if cid is None:
                return []
            return [Out(cid, P.error("internal error: the message was not processed"))]

    async def _deliver(self, outs: list[Out], *, wait: bool = True) -> None:
        """Write the journal lines of this host step, then send what it produced. Nobody is
        ever shown a state that a crash could lose.

        Group commit (:class:`GroupCommit`): the step's lines join those of the other steps
        ready now (this table's and every other table's on this loop), written and synced
        together in a worker thread while the loop goes on. Sends keep the order in which the
        host made them. ``wait=False`` (the clock's steps): return once queued; the next step
        may join the same write."""
        job = self._call(self.host.take_save)
        if not isinstance(job, JournalWrite):
            job = None  # (a bug while taking it is logged by _call)
        if job is None and not self._waiting:
            self._dispatch(outs)  # nothing to write and nothing waiting: send at once
            return
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._waiting += 1
        GroupCommit.of(loop).add(_Step(self, job, outs, done))
        if wait or self._waiting > AHEAD:  # the clock, too, must not run far ahead of the disk
            await done

    def _committed(self, steps: list[_Step], failed: dict[int, OSError]) -> None:
        """These steps' lines are on disk (or failed to be written: the table goes on, and
        its next write starts the journal afresh): send what they produced. The host tells
        everyone once when its journal stops being written, and once when it works again
        (its notices go out after these steps' messages)."""
        errors: dict[int, tuple[OSError, Path]] = {}
        written = None  # whether the last write of these steps reached the disk
        for step in steps:
            exc = failed.get(id(step.write.file)) if step.write is not None else None
            if exc is not None:
                errors.setdefault(id(exc), (exc, step.write.file.path))  # type: ignore[union-attr]
            if step.write is not None:
                written = exc is None
        news: list[Out] = []
        for exc, path in errors.values():  # a full disk must not stop the table
            log.debug("writing the journal %s failed: %s", path, exc)  # (said once: the host)
            news += self._call(self.host.save_failed, exc) or []
        if written:
            news += self._call(self.host.save_written) or []
        self._waiting -= len(steps)
        for step in steps:
            if not step.done.done():
                step.done.set_result(None)
        # one write per connection for the whole group (a deal's steps, say)
        self._dispatch([out for step in steps for out in step.outs] + news)

    def _dispatch(self, outs: list[Out]) -> None:
        """Encode and send; what one connection gets from one host step goes out in one
        write (a state and its ack, a commitment and the deal)."""
        encoded: dict[int, bytes] = {}
        batches: dict[int, list[bytes]] = {}
        closing: list[int] = []
        for out in outs:
            if out.cid in closing:
                continue
            chunks = batches.setdefault(out.cid, [])
            if out.data is not None:
                chunks.append(out.data)
            elif out.msg is not None:
                data = encoded.get(id(out.msg))
                if data is None:
                    data = encoded[id(out.msg)] = P.encode(out.msg)
                chunks.append(data)
            if out.close:
                closing.append(out.cid)
        for cid, chunks in batches.items():
            conn = self.conns.get(cid)
            if conn is not None and chunks:
                self._send(conn, chunks[0] if len(chunks) == 1 else b"".join(chunks))
        for cid in closing:
            conn = self.conns.get(cid)
            if conn is not None:
                self._finish(conn)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._handlers.add(task)
        task.add_done_callback(self._handlers.discard)

    async def _think(self, job: Any) -> None:
        """A bot decides in a worker thread, so a slow bot never stalls the other players."""
        try:
            action = await asyncio.to_thread(job.bot.choose, job.view, job.legal)
        except Exception:
            log.exception("bot at seat %s failed; the table plays for it", job.seat)
            action = None
        outs = self._call(self.host.bot_chose, job, action, self._now())
        self._wake.set()
        await self._deliver(outs)

    async def _clock(self) -> None:
        """Run the host's due steps (dealer, bots, timers) whenever they are due."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                # one automatic step at a time: the writers run between steps, so a burst of
                # bot moves never fills the queue of a client that is reading
                await self._deliver(self.host.poll(loop.time(), max_steps=1), wait=False)
                job = self.host.take_bot_job()
                if job is not None:
                    self._spawn(self._think(job))
            except Exception:
                log.exception("internal error in the table clock")
                await asyncio.sleep(0.1)
            wake = self.host.next_wakeup
            self._wake.clear()
            if wake is not None and wake <= loop.time():
                await asyncio.sleep(0)  # let readers and writers run between steps
                continue
            alarm = loop.call_at(wake, self._wake.set) if wake is not None else None
            try:
                await self._wake.wait()
            finally:
                if alarm is not None:
                    alarm.cancel()
