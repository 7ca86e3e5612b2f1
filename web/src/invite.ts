// The invitation box of a friend game: the links to send, with copy buttons.

import { button, h, tx } from './dom';
import { t } from './i18n';
import { Color, GameState, other } from './protocol';

/** What the creator of a friend game may send on. */
export interface Invitation {
  invite: string | null;
  links: Record<Color, string> | null;
}

/** A read-only link with a Copy button. */
function link(url: string, testid: string): HTMLElement {
  const input = h('input', { type: 'text', readonly: true, value: url, 'data-testid': testid });
  const copy = button('copy', `${testid}-copy`, () => {
    const done = (): void => {
      copy.textContent = t('copied');
    };
    if (navigator.clipboard) navigator.clipboard.writeText(url).then(done, () => undefined);
    else {
      input.select();
      document.execCommand('copy');
      done();
    }
  });
  return h('div', { class: 'link' }, input, copy);
}

/** Fills `box` with the invitation while the friend has not come yet; hides it otherwise. */
export function renderInvite(box: HTMLElement, s: GameState, inv: Invitation | null): void {
  const mine: Color = s.you === 'black' ? 'black' : 'white';
  const show =
    s.mode === 'friend' && inv !== null && s.ply === 0 && !s.outcome && !s.aborted && s.you !== 'spectator' && !s.players[other(mine)].connected;
  box.hidden = !show;
  if (!show || !inv) return;
  const rows: HTMLElement[] = [tx('p', 'inviteLink')];
  if (inv.links) rows.push(link(location.origin + inv.links[other(mine)], 'invite-link'));
  if (inv.invite) rows.push(tx('p', 'inviteAny'), link(`${location.origin}/j/${inv.invite}`, 'invite-any'));
  box.replaceChildren(...rows);
}
