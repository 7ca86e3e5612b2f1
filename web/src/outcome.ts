// The result and its reason in plain words, with the article of the Laws.

import { isKey, Key, t } from './i18n';
import type { Outcome } from './protocol';

/** The result as a scoresheet shows it (`1-0`, `0-1`, `½-½`). */
export function resultText(result: string): string {
  return result === '1/2-1/2' ? '½-½' : result;
}

/** The reason in words, e.g. "checkmate (Article 5.1.1)". */
export function reasonText(outcome: Outcome): string {
  const words = isKey(outcome.reason) ? t(outcome.reason) : outcome.reason.replace(/_/g, ' ');
  return `${words} (${t('article', { article: outcome.article })})`;
}

/** Who won, in words: "Black wins", or "Draw". */
export function winnerText(outcome: Outcome): string {
  const winner = outcome.winner ?? (outcome.result === '1-0' ? 'white' : outcome.result === '0-1' ? 'black' : null);
  if (winner) return t(winner === 'white' ? 'whiteWins' : 'blackWins');
  return outcome.result === '1/2-1/2' ? t('drawn') : '';
}

/** The whole line, e.g. "Black wins: 0-1 — checkmate (Article 5.1.1)". */
export function outcomeText(outcome: Outcome): string {
  const who = winnerText(outcome);
  return `${who ? `${who}: ` : ''}${resultText(outcome.result)} — ${reasonText(outcome)}`;
}

/** The text of an error the server sent, from its stable code (docs/protocol.md), in the page's language. */
export function errorText(code: string): string {
  const key = `e_${code}`;
  return isKey(key) && code !== 'unknown' ? t(key) : t('e_unknown', { code });
}

/** The reason a game ended, in words (lichess's status names). */
export function statusText(status: string): string {
  const key: Record<string, Key> = {
    mate: 'checkmate',
    resign: 'resignation',
    stalemate: 'stalemate',
    outoftime: 'timeout',
    timeout: 'forfeit',
    draw: 'st_draw',
    aborted: 'st_aborted',
    noStart: 'st_aborted',
    created: 'st_started',
    started: 'st_started',
  };
  const k = key[status];
  return k ? t(k) : '';
}
