/** What `playWithSound` achieved. */
export type PlayOutcome =
  /** Playing, muted or not as asked. */
  | 'playing'
  /** Sound was asked for and the browser refused it without a fresh tap: playing muted instead. */
  | 'muted'
  /** A newer stream or a pause interrupted this play: the newer one decides. */
  | 'interrupted'
  /** The browser would not play even muted. */
  | 'failed';

type Player = Pick<HTMLMediaElement, 'muted' | 'play'>;

const errorName = (err: unknown) => (typeof err === 'object' && err !== null && 'name' in err ? String(err.name) : '');

/**
 * Plays the viewer's player with the sound as the buyer chose it. Browsers allow sound only after a
 * tap; phones' browsers may ask again for a new stream (the seller resumed, a reconnect), and a
 * refused play leaves the player paused on a frozen picture. Then the picture plays muted and the
 * page offers 'Activar audio' again ('muted').
 */
export async function playWithSound(player: Player, sound: boolean): Promise<PlayOutcome> {
  player.muted = !sound;
  try {
    await player.play();
    return 'playing';
  } catch (err) {
    if (errorName(err) === 'AbortError') return 'interrupted';
    if (!sound) return 'failed';
  }
  player.muted = true;
  try {
    await player.play();
    return 'muted';
  } catch (err) {
    return errorName(err) === 'AbortError' ? 'interrupted' : 'failed';
  }
}
