// The result and its reason in plain words, with the article of the Laws.

import { isKey, t } from './i18n';
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

/** The whole line, e.g. "0-1 — checkmate (Article 5.1.1)". */
export function outcomeText(outcome: Outcome): string {
  return `${resultText(outcome.result)} — ${reasonText(outcome)}`;
}
