// The arbiter's controls of an event paired round by round (issue 18 point
// 8), on its page for its director: hold or let go the next pairing, pair
// the next round now, change a finished game's result, set a bye for a
// round not yet paired. Each asks for a reason (logged, and told to the
// players it concerns) and shows the server's refusal in its own form.
// Late entries and withdrawals are the page's player tools (tournament.ts).

import { tournamentAct, Tournament } from './director';
import { fault, h, row, select } from './dom';
import { t } from './i18n';
import { boardResult } from './tntables';
import { reasonField, ToolForm, toolForm } from './tntool';

/** The arbiter's forms; `update` follows the tournament. */
export class ArbiterTools {
  readonly el: HTMLElement;
  private data: Tournament | null = null;
  private readonly pause: ToolForm;
  private readonly pausedNote = h('p', { class: 'hint', 'data-testid': 'tn-paused-note' });
  private readonly pair: ToolForm;
  private readonly pairNote = h('p', { class: 'hint' });
  private readonly result: ToolForm;
  private readonly board = h('select', { 'data-testid': 'tn-result-game' });
  private readonly outcome = select(
    'tn-result-value',
    [
      ['1-0', '=1-0'],
      ['0-1', '=0-1'],
      ['1/2-1/2', '=½-½'],
      ['+-', 'tnForfeitWhite'],
      ['-+', 'tnForfeitBlack'],
      ['--', 'tnForfeitBoth'],
    ],
    '1/2-1/2',
  );
  private readonly bye: ToolForm;
  private readonly byePlayer = h('select', { 'data-testid': 'tn-bye-player' });
  private readonly byeRound = h('input', { type: 'number', min: 1, 'data-testid': 'tn-bye-round' });

  constructor(
    private readonly id: string,
    private readonly did: (f: ToolForm, text: string) => Promise<void>,
  ) {
    const pauseReason = reasonField('tn-pause');
    this.pause = toolForm('tn-pause', 'tnPauseTitle', 'tnPause', [this.pausedNote, pauseReason.row], async (f) => {
      const why = pauseReason.input.value.trim();
      if (!why) return fault(f.error, t('reasonMissing'), pauseReason.input);
      const paused = !this.data?.paused;
      await tournamentAct(this.id, 'pause', { paused, reason: why });
      pauseReason.input.value = '';
      await this.did(f, t(paused ? 'tnPausedNow' : 'tnResumedNow'));
    });
    const pairReason = reasonField('tn-pair');
    this.pair = toolForm('tn-pair', 'tnPairTitle', 'tnPair', [this.pairNote, pairReason.row], async (f) => {
      const why = pairReason.input.value.trim();
      if (!why) return fault(f.error, t('reasonMissing'), pairReason.input);
      const answer = (await tournamentAct(this.id, 'pair', { reason: why })) as { round: number };
      pairReason.input.value = '';
      await this.did(f, t('tnPairedNow', { n: answer.round }));
    });
    const resultReason = reasonField('tn-result');
    this.result = toolForm('tn-result', 'tnResultTitle', 'tnResultSend', [row('tnResultGame', this.board), row('tnResultValue', this.outcome), resultReason.row], async (f) => {
      const game = this.board.value;
      if (!game) return fault(f.error, t('tnResultNoGame'), this.board);
      const why = resultReason.input.value.trim();
      if (!why) return fault(f.error, t('reasonMissing'), resultReason.input);
      const label = this.board.selectedOptions[0]?.dataset.label ?? game;
      await tournamentAct(this.id, 'result', { game, result: this.outcome.value, reason: why });
      resultReason.input.value = '';
      await this.did(f, t('tnResultChanged', { board: label, result: boardResult(this.outcome.value) }));
    });
    const byeKind = select(
      'tn-bye-kind',
      [
        ['half', 'tnByeHalf'],
        ['full', 'tnByeFull'],
        ['zero', 'tnByeZero'],
        ['none', 'tnByeNone'],
      ],
      'half',
    );
    const byeReason = reasonField('tn-bye');
    this.bye = toolForm('tn-bye', 'tnByeTitle', 'tnByeSend', [row('tnPlayer', this.byePlayer), row('tnByeRound', this.byeRound), row('tnByeKind', byeKind), byeReason.row], async (f) => {
      const player = this.byePlayer.value;
      const round = Number(this.byeRound.value);
      if (!Number.isInteger(round) || round < 1) return fault(f.error, t('tnByeRoundBad'), this.byeRound);
      const why = byeReason.input.value.trim();
      if (!why) return fault(f.error, t('reasonMissing'), byeReason.input);
      await tournamentAct(this.id, 'bye', { player, round, kind: byeKind.value, reason: why });
      byeReason.input.value = '';
      await this.did(f, t('tnByeSet', { name: player, n: round }));
    });
    this.el = h('div', { class: 'tn-arbiter', 'data-testid': 'tn-arbiter' }, this.pause.form, this.pair.form, this.result.form, this.bye.form);
  }

  /** Follows the tournament: the pause's direction, the next round, the finished boards, the players. */
  update(d: Tournament): void {
    this.data = d;
    const over = d.status === 'finished';
    this.pause.form.hidden = over;
    this.pausedNote.textContent = t(d.paused ? 'tnPausedState' : 'tnRunningState');
    this.pause.send.dataset.i18n = d.paused ? 'tnResume' : 'tnPause';
    this.pause.send.textContent = t(d.paused ? 'tnResume' : 'tnPause');
    this.pause.send.dataset.paused = String(d.paused);
    this.pair.form.hidden = over || d.status === 'created';
    this.pairNote.textContent = t('tnPairHint', { n: d.round + 1 });
    // Results: every board of every round, newest first; those going on cannot be changed here.
    const chosen = this.board.value;
    const boards = (d.pairings ?? [])
      .slice()
      .reverse()
      .flatMap((r) => r.boards.filter((b) => b.game && b.result !== null).map((b) => ({ r, b })));
    this.board.replaceChildren(
      ...boards.map(({ r, b }) =>
        h('option', { value: b.game ?? '', 'data-label': t('tnResultBoard', { n: r.round, board: b.board, white: b.white.name ?? '?', black: b.black.name ?? '?' }) }, t('tnResultOption', { n: r.round, board: b.board, white: b.white.name ?? '?', black: b.black.name ?? '?', result: boardResult(b.result) })),
      ),
    );
    if (boards.some(({ b }) => b.game === chosen)) this.board.value = chosen;
    this.result.form.hidden = boards.length === 0;
    const player = this.byePlayer.value;
    this.byePlayer.replaceChildren(...d.players.filter((p) => !p.withdrawn).map((p) => h('option', { value: p.name }, p.name)));
    if (d.players.some((p) => p.name === player)) this.byePlayer.value = player;
    this.byeRound.max = String(d.rounds);
    if (!this.byeRound.value || Number(this.byeRound.value) <= d.round) this.byeRound.value = String(Math.min(d.round + 1, d.rounds));
    this.bye.form.hidden = over || d.round >= d.rounds;
  }

  /** Chooses finished game `game` in the result form and puts the focus on the result. */
  changeResult(game: string): void {
    this.board.value = game;
    this.result.form.scrollIntoView({ block: 'nearest' });
    this.outcome.focus();
  }
}
