// The rating categories in words: lichess's category with its bounds, and
// the categories of the Laws of Chess it can fall into (Appendix A rapid,
// B blitz, or standard), which count base + 60 × increment where lichess
// estimates base + 40 × increment.

import { Key, t } from './i18n';
import type { Perf } from './users';

/** The FIDE categories a game of each lichess category can be. */
const FIDE: Record<Perf, Key[]> = {
  // under 30 s and under 3 min estimated: base + 60 × increment stays under 10 min
  ultraBullet: ['fide_blitz'],
  bullet: ['fide_blitz'],
  // 3 to 8 min estimated: 0+11 is 7 min 20 s for lichess but 11 min for the Laws
  blitz: ['fide_blitz', 'fide_rapid'],
  // 8 to 25 min estimated: 8+0 is blitz for the Laws (10 min or less), 0+37 is rapid
  rapid: ['fide_blitz', 'fide_rapid'],
  // 25 min or more: rapid under 60 min, standard from 60 min
  classical: ['fide_rapid', 'fide_standard'],
  correspondence: ['fide_none'],
  chess960: ['fide_clock'],
};

/** True when `name` is one of lichess's categories. */
export function isPerf(name: string): name is Perf {
  return name in FIDE;
}

/** The category's name: "Blitz". */
export function perfName(perf: string): string {
  return isPerf(perf) ? t(`cat_${perf}` as Key) : perf;
}

/** The FIDE category of a game (`blitz`, `rapid`, `standard`) in words. */
export function fideName(category: string): string {
  const key = `fide_${category}`;
  return key === 'fide_blitz' || key === 'fide_rapid' || key === 'fide_standard' ? t(key) : category;
}

/** "Blitz (lichess: 3 to 8 min estimated) · FIDE: blitz/rapid". */
export function perfLine(perf: Perf): string {
  return t('catLine', {
    category: perfName(perf),
    bounds: t(`bound_${perf}` as Key),
    fide: FIDE[perf].map((k) => t(k)).join('/'),
  });
}
