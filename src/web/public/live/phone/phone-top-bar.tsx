import { VisuallyHidden } from '@mantine/core';
import { livePath } from '../../../../domain/live-public.js';
import { ChatIcon, ChevronLeftIcon, EyeIcon, VolumeIcon, VolumeOffIcon } from '../../../components/icons';
import { ShareButton } from '../../../components/share-button';
import { storeHref, storeOf } from '../../../components/store-link';
import { useTranslation } from '../../../i18n';
import { PurchasesLink } from '../../purchases/purchases-link';
import type { VideoSound } from '../live-video';
import type { ShowModel } from '../show-model';
import classes from './phone-show.module.css';

/** The show's top bar: a way back, the show and its seller, EN VIVO, the viewers; under it the sound and the WhatsApp group. */
export function PhoneTopBar({ show, sound }: { show: ShowModel; sound: VideoSound }) {
  const { t } = useTranslation();
  const { session, pageState, viewerCount } = show;
  const store = storeOf(session);
  const status = sound.isStopped ? 'stopped' : pageState;
  return (
    <>
      <header className={classes.topBar}>
        <a href="/live" className={classes.round} aria-label={t('live.phone.back')} data-testid="back-to-shows">
          <ChevronLeftIcon size={22} />
        </a>
        <div className={classes.titleBlock}>
          <h1 className={classes.title}>{session.title}</h1>
          {store ? (
            <p className={classes.seller} data-testid="seller-name">
              <a href={storeHref(store)} style={{ color: 'inherit' }} data-testid="seller-store-link">
                {session.sellerName || store.name}
              </a>
            </p>
          ) : (
            session.sellerName && (
              <p className={classes.seller} data-testid="seller-name">
                {session.sellerName}
              </p>
            )
          )}
        </div>
        <span className={classes.status} data-state={status} data-testid="live-status">
          {t(`live.status.${status}`)}
        </span>
        {viewerCount !== null && (
          <span className={classes.viewers} data-testid="viewer-count" data-count={viewerCount}>
            <EyeIcon size={16} aria-hidden="true" />
            <span aria-hidden="true">{viewerCount}</span>
            <VisuallyHidden>{t('live.viewers', { count: viewerCount })}</VisuallyHidden>
          </span>
        )}
      </header>
      {/* Compartir is always there, so the row always shows. */}
      <div className={classes.topActions}>
        {sound.isPlaying && (
          <button type="button" className={classes.pill} onClick={sound.toggleSound} aria-pressed={!sound.muted} data-testid="audio-toggle">
            {sound.muted ? <VolumeIcon size={18} aria-hidden="true" /> : <VolumeOffIcon size={18} aria-hidden="true" />}
            {sound.muted ? t('live.video.unmute') : t('live.video.mute')}
          </button>
        )}
        {sound.canSaveData && (
          <button
            type="button"
            className={classes.pill}
            onClick={sound.toggleDataSaver}
            aria-pressed={sound.dataSaver}
            data-testid="data-saver-toggle"
            title={t('live.video.dataSaverHint')}
          >
            {t('live.video.dataSaver')}
          </button>
        )}
        {session.whatsappLink && (
          <a
            href={session.whatsappLink}
            target="_blank"
            rel="noopener noreferrer"
            className={classes.pill}
            data-kind="whatsapp"
            aria-label={t('live.whatsapp')}
            data-testid="whatsapp-link"
          >
            <ChatIcon size={18} aria-hidden="true" />
            {t('live.phone.whatsapp')}
          </a>
        )}
        <ShareButton title={session.title} url={livePath(session)} className={classes.pill} />
        <PurchasesLink className={classes.pill} />
      </div>
    </>
  );
}
