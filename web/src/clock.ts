// Both clocks counting down smoothly between states. The server's time is the
// truth: each state resets the displayed times to what it says, measured from
// the moment it arrived, so drift never outlives one state.

import { formatDays } from './correspondence';
import type { ClockState, Color } from './protocol';

/** The time left, as a clock face shows it: `h:mm:ss`, `m:ss`, or `s.t` under ten seconds. */
export function formatTime(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) return (Math.floor(clamped / 100) / 10).toFixed(1);
  const total = Math.floor(clamped / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Under this much time a clock is shown as low (and a warning sounds once). */
export const LOW_TIME_MS = 10_000;

/** Draws the two clock faces and keeps the running one ticking. */
export class Clocks {
  private state: ClockState | null = null;
  private received = 0;
  private frame = 0;
  private warned: Record<Color, boolean> = { white: false, black: false };

  constructor(
    private faces: Record<Color, HTMLElement>,
    private readonly onLowTime: (color: Color) => void,
  ) {}

  /** Takes the clocks of a new state (or null for a game without a clock). */
  update(state: ClockState | null, running: boolean): void {
    this.state = state && running ? state : state ? { ...state, running: null } : null;
    this.received = performance.now();
    for (const c of ['white', 'black'] as Color[]) {
      this.faces[c].hidden = state === null;
      if (state && state[c] >= LOW_TIME_MS) this.warned[c] = false;
    }
    this.draw();
    cancelAnimationFrame(this.frame);
    if (this.state?.running) this.tick();
  }

  /** Moves the clocks to other faces (after the board turned round). */
  retarget(faces: Record<Color, HTMLElement>): void {
    if (faces.white === this.faces.white) return;
    this.faces = faces;
    for (const c of ['white', 'black'] as Color[]) this.faces[c].hidden = this.state === null;
    this.draw();
  }

  /** The time `color` has left now, as the page estimates it. */
  left(color: Color): number {
    if (!this.state) return 0;
    const base = this.state[color];
    return this.state.running === color ? base - this.ranFor() : base;
  }

  /** How long the running clock has run since the state came: booked leave (ICCF 10.1) stops it. */
  private ranFor(): number {
    const since = performance.now() - this.received;
    let stopped = 0;
    for (const [from, to] of this.state?.pauses ?? []) stopped += Math.max(0, Math.min(since, to) - Math.min(since, from));
    return since - stopped;
  }

  /** True while a booked stop (leave) holds both clocks. */
  private paused(): boolean {
    const since = performance.now() - this.received;
    return (this.state?.pauses ?? []).some(([from, to]) => from <= since && since < to);
  }

  /** Draws the faces again (after a change of language). */
  redraw(): void {
    this.draw();
  }

  private tick(): void {
    this.frame = requestAnimationFrame(() => {
      this.draw();
      if (this.state?.running) this.tick();
    });
  }

  private draw(): void {
    if (!this.state) return;
    for (const c of ['white', 'black'] as Color[]) {
      const ms = this.left(c);
      const face = this.faces[c];
      // A control in days reads as days and hours, not as a running h:mm:ss.
      const text = this.state.category === 'correspondence' ? formatDays(ms) : formatTime(ms);
      const time = face.querySelector<HTMLElement>('.time') ?? face;
      if (time.textContent !== text) time.textContent = text;
      face.classList.toggle('running', this.state.running === c && !this.paused());
      face.classList.toggle('low', ms < LOW_TIME_MS);
      if (this.state.running === c && ms < LOW_TIME_MS && !this.warned[c] && ms > 0) {
        this.warned[c] = true;
        this.onLowTime(c);
      }
    }
  }
}
