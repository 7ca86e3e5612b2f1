// Sounds synthesised with the Web Audio API: no files to license or load.

/** The events that make a sound. */
export type Cue = 'move' | 'capture' | 'check' | 'castle' | 'end' | 'lowTime';

const KEY = 'rochade.sound';
let enabled = localStorage.getItem(KEY) !== 'off';
let ctx: AudioContext | null = null;

/** Whether sounds are on. */
export function soundOn(): boolean {
  return enabled;
}

/** Turns sounds on or off and remembers the choice. */
export function setSound(on: boolean): void {
  enabled = on;
  localStorage.setItem(KEY, on ? 'on' : 'off');
  if (on) context();
}

/** The audio context, made on first use (browsers allow it after a gesture). */
function context(): AudioContext | null {
  if (!ctx && typeof AudioContext !== 'undefined') ctx = new AudioContext();
  if (ctx && ctx.state === 'suspended') void ctx.resume();
  return ctx;
}

/** One tone: frequency in Hz, start and length in seconds from now, a shape and a peak gain. */
function tone(ac: AudioContext, freq: number, start: number, length: number, type: OscillatorType, peak: number): void {
  const osc = ac.createOscillator();
  const gain = ac.createGain();
  const at = ac.currentTime + start;
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + 0.005);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ac.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/** A short burst of filtered noise, like wood on wood. */
function knock(ac: AudioContext, start: number, cutoff: number, peak: number): void {
  const length = 0.08;
  const buffer = ac.createBuffer(1, Math.ceil(ac.sampleRate * length), ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const src = ac.createBufferSource();
  const filter = ac.createBiquadFilter();
  const gain = ac.createGain();
  src.buffer = buffer;
  filter.type = 'lowpass';
  filter.frequency.value = cutoff;
  gain.gain.value = peak;
  src.connect(filter).connect(gain).connect(ac.destination);
  src.start(ac.currentTime + start);
}

/** Plays the sound of `cue` if sounds are on. */
export function play(cue: Cue): void {
  if (!enabled) return;
  const ac = context();
  if (!ac) return;
  switch (cue) {
    case 'move':
      knock(ac, 0, 1800, 0.9);
      break;
    case 'capture':
      knock(ac, 0, 900, 1.2);
      knock(ac, 0.05, 2400, 0.6);
      break;
    case 'castle':
      knock(ac, 0, 1800, 0.8);
      knock(ac, 0.11, 1500, 0.8);
      break;
    case 'check':
      tone(ac, 880, 0, 0.12, 'triangle', 0.25);
      tone(ac, 1175, 0.1, 0.16, 'triangle', 0.25);
      break;
    case 'end':
      [523, 659, 784, 1047].forEach((f, i) => tone(ac, f, i * 0.12, 0.4, 'sine', 0.2));
      break;
    case 'lowTime':
      tone(ac, 1400, 0, 0.08, 'square', 0.08);
      tone(ac, 1400, 0.16, 0.08, 'square', 0.08);
      break;
  }
}

/** The cue for a move written in SAN (English letters). */
export function cueOf(san: string): Cue {
  if (san.endsWith('#')) return 'end';
  if (san.endsWith('+')) return 'check';
  if (san.startsWith('O-O')) return 'castle';
  return san.includes('x') ? 'capture' : 'move';
}
