// A tournament's page, live (`/ws/tournaments/{id}`): the server says
// `{"t":"changed"}` on every change and the page reads the tournament
// again; the socket is pinged to stay open and opened again after a break
// (the page reads again then too: a change may have been missed).

import { openSocket } from './socket';

/** How often the page pings, ms. */
const PING_MS = 25_000;

/** The socket of one tournament's page. */
export class TournamentSocket {
  private ws: WebSocket | null = null;
  private wait = 500;
  private timer = 0;
  private closed = false;

  constructor(
    private readonly id: string,
    private readonly changed: () => void,
  ) {
    this.connect(false);
  }

  /** Closes for good (the page is left). */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.ws?.close();
  }

  /** Opens the socket; `again` after a break, when the page reads the tournament once it is open. */
  private connect(again: boolean): void {
    const ws = openSocket(`/ws/tournaments/${encodeURIComponent(this.id)}`);
    if (!ws) return;
    this.ws = ws;
    ws.onopen = () => this.opened(ws, again);
    ws.onmessage = (ev) => {
      if (String(ev.data).includes('"changed"')) this.changed();
    };
    ws.onclose = () => {
      clearInterval(this.timer);
      if (this.closed || this.ws !== ws) return;
      window.setTimeout(() => !this.closed && this.connect(true), this.wait);
      this.wait = Math.min(this.wait * 2, 8000);
    };
  }

  /** Keeps an open socket alive; after a break, reads the tournament again. */
  private opened(ws: WebSocket, again: boolean): void {
    this.wait = 500;
    clearInterval(this.timer);
    this.timer = window.setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"t":"ping"}'), PING_MS);
    if (again) this.changed();
  }
}
