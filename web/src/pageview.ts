// A page of its own in the main area (the dashboard, the director's page, a
// tournament's): it reads its data when the account socket says so and
// draws again in a new language; closing it stops both.

import { LANG_CHANGED } from './i18n';
import type { Lobby, LobbyMessage } from './lobby';

/** A page that follows the account socket and the language. */
export abstract class PageView {
  abstract readonly el: HTMLElement;
  /** The heading, focused when the page opens. */
  protected abstract readonly title: HTMLElement;
  private off: () => void = () => undefined;
  private readonly relabel = (): void => this.render();

  /** Reads the page's data (again), then draws it. */
  protected abstract load(): Promise<void>;

  /** Draws the page in the language of the moment. */
  protected abstract render(): void;

  /** Starts: reads the data now and again on the socket's messages for which `reload` is true. */
  protected follow(lobby: Lobby, reload: (msg: LobbyMessage) => boolean): void {
    this.off = lobby.on((msg) => {
      if (reload(msg)) void this.load();
    });
    document.addEventListener(LANG_CHANGED, this.relabel);
    void this.load();
  }

  /** Leaves the page. */
  close(): void {
    this.off();
    document.removeEventListener(LANG_CHANGED, this.relabel);
  }

  /** Puts the focus on the heading (the page just opened). */
  focus(): void {
    this.title.focus();
  }
}
