// The WebSocket to the game's room, reconnecting after a break.

import type { ServerMessage } from './protocol';

/** A WebSocket to `path` on the page's own host (`wss` under https); null when the browser refuses to open one. */
export function openSocket(path: string): WebSocket | null {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  try {
    return new WebSocket(`${scheme}://${location.host}${path}`);
  } catch {
    return null;
  }
}

/** One game's connection; messages arrive at `onMessage`, breaks at `onStatus`. */
export class Room {
  private ws: WebSocket | null = null;
  private retry = 500;
  private closed = false;
  private pinger = 0;

  constructor(
    private readonly game: string,
    private readonly token: string | null,
    private readonly onMessage: (msg: ServerMessage) => void,
    private readonly onStatus: (connected: boolean) => void,
  ) {
    this.open();
  }

  /** Sends one client message (protocol version 1). */
  send(msg: Record<string, unknown>): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ v: 1, ...msg }));
  }

  /** Closes for good (leaving the game page). */
  close(): void {
    this.closed = true;
    clearInterval(this.pinger);
    this.ws?.close();
  }

  private open(): void {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.game)}`);
    this.ws = ws;
    ws.onopen = () => {
      // The seat token goes in the first message, never in the URL (which
      // proxies log). After a move the server sends the move and what it
      // changed, not the whole state (docs/protocol.md).
      ws.send(JSON.stringify({ v: 1, t: 'hello', token: this.token, move_messages: true }));
      this.retry = 500;
      this.onStatus(true);
      clearInterval(this.pinger);
      this.pinger = window.setInterval(() => this.send({ t: 'ping' }), 25_000);
    };
    ws.onmessage = (ev) => {
      try {
        this.onMessage(JSON.parse(String(ev.data)) as ServerMessage);
      } catch (e) {
        console.error('bad message from server', e);
      }
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.closed) return;
      this.onStatus(false);
      window.setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }
}
