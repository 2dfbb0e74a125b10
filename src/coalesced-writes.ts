/**
 * The server's socket writes, made together once the event loop's turn has read its requests.
 *
 * Under concurrent load each client waits in `epoll` between answers, so an answer written at
 * once wakes it: on loopback the kernel does that wake-up inside the server's `writev`, and it
 * was the largest single cost of a keyed create at 32 connections (a quarter of the main
 * thread's CPU, measured with `perf`). Here the requests one poll reads are handled first: the
 * turn's first write goes at once (it wakes its client either way, and an answer alone in its
 * turn, one connection, waits for nothing), the bytes of the others are kept and written back
 * to back in the check phase (`setImmediate`), where the first wakes a client and the ones right
 * after it find it awake.
 *
 * Only where the bytes go changes, through the stream implementer's hooks (`_write`, `_writev`,
 * `_final`, `_destroy`) of each accepted socket:
 * - a write is done for its stream (its callback runs) at once while the kernel has taken all
 *   that was written before; once a write waits for the kernel, the next ones wait with it, so
 *   a client that does not read still holds the server back (backpressure);
 * - every byte goes in the order written, in one `writev` per socket per turn after the first;
 * - before a socket ends (`_final`: the FIN follows its bytes) or is destroyed, its bytes go;
 * - a write the kernel refuses destroys the socket with that error, as a refused write would.
 */
import type { Socket } from 'node:net';

type Done = (error?: Error | null) => void;
/** A chunk as a `Writable` hands it to `_writev`. */
interface Chunk {
  chunk: unknown;
  encoding: BufferEncoding;
}

/** One socket's writes of this turn, not yet given to the kernel. */
class Held {
  chunks: Chunk[] = [];
  /** Callbacks that wait for the kernel (a write before them still does). */
  waiting: Done[] = [];
  /** Writes given to the kernel and not yet taken by it. */
  inKernel = 0;
  queued = false;

  constructor(
    readonly socket: Socket,
    /** `net.Socket`'s own `_writev`: the write to the kernel. */
    private readonly write: (chunks: Chunk[], done: Done) => void,
  ) {}

  /** Gives the kernel what this socket holds (in one `writev`). */
  send(): void {
    this.queued = false;
    if (this.chunks.length === 0) return;
    const chunks = this.chunks;
    const waiting = this.waiting;
    this.chunks = [];
    this.waiting = [];
    this.inKernel += 1;
    this.write(chunks, (error) => {
      this.inKernel -= 1;
      for (const done of waiting) done(error);
      if (error && waiting.length === 0) this.socket.destroy(error);
    });
  }
}

/** Sockets with writes held this turn, in the order of their first write. */
let turn: Held[] = [];
/** A write was made this turn: the ones after it are held until its end. */
let turnOpen = false;

function sendTurn(): void {
  turnOpen = false;
  const sending = turn;
  turn = [];
  for (const held of sending) held.send();
}

/** Makes the writes of `socket` (a connection the server accepted) go at the end of the turn. */
export function coalesceWrites(socket: Socket): void {
  // The prototype's hooks (`net.Socket`'s): what the overrides below write with, in the end.
  const proto = Object.getPrototypeOf(socket) as Socket;
  const held = new Held(socket, (chunks, done) => proto._writev!.call(socket, chunks, done));
  const hold = (chunks: Chunk[], done: Done): void => {
    for (const chunk of chunks) held.chunks.push(chunk);
    if (!turnOpen) {
      // The turn's first write goes at once: it wakes its client either way, and an answer
      // alone in its turn (one connection) waits for nothing.
      turnOpen = true;
      setImmediate(sendTurn);
      held.waiting.push(done);
      held.send();
      return;
    }
    if (held.inKernel === 0) done();
    else held.waiting.push(done);
    if (!held.queued) {
      held.queued = true;
      turn.push(held);
    }
  };
  socket._writev = hold;
  socket._write = (chunk: unknown, encoding: BufferEncoding, done: Done) => hold([{ chunk, encoding }], done);
  socket._final = (done: Done) => {
    held.send(); // the end of the stream follows its bytes
    proto._final.call(socket, done);
  };
  socket._destroy = (error: Error | null, done: Done) => {
    held.send(); // what was written goes before the connection closes
    proto._destroy.call(socket, error, done);
  };
}
