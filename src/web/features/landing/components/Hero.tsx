import { ZoomIn } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/ui/Button.js';
import { Modal } from '../../../components/ui/Modal.js';
import { useScreenshot } from '../screenshots.js';

export function Hero() {
  const { t } = useTranslation();
  const [zoomed, setZoomed] = useState(false);
  const alt = t('landing.screenshot.alt');
  // Produced by `npm run screenshots` from a running Feeder, in the page's language and theme.
  const shot = useScreenshot('dashboard');

  return (
    <section aria-labelledby="hero-title" className="px-4 pt-14 pb-16 sm:px-6 sm:pt-20 sm:pb-24">
      <div className="mx-auto max-w-3xl text-center">
        <p className="inline-flex items-center gap-2 rounded-full border border-border bg-surface/70 px-3 py-1 text-xs text-muted sm:text-sm">
          <span aria-hidden className="size-1.5 rounded-full bg-accent" />
          {t('landing.hero.eyebrow')}
        </p>
        <h1 id="hero-title" className="mt-6 text-4xl leading-[1.1] font-semibold tracking-tight text-balance sm:text-5xl lg:text-6xl">
          {t('landing.hero.title')}
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg leading-relaxed text-muted text-pretty sm:text-xl">{t('landing.hero.subtitle')}</p>
        <div className="mt-9 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
          <ButtonLink to="/register" size="lg">
            {t('landing.hero.ctaRegister')}
          </ButtonLink>
          <ButtonLink to="/login" size="lg" variant="secondary">
            {t('landing.hero.ctaLogin')}
          </ButtonLink>
        </div>
        <p className="mt-4 text-sm text-muted">{t('landing.hero.note')}</p>
      </div>

      <div className="mx-auto mt-14 max-w-5xl sm:mt-20">
        <button
          type="button"
          onClick={() => setZoomed(true)}
          aria-label={t('landing.screenshot.zoom')}
          aria-haspopup="dialog"
          className="group relative block w-full cursor-zoom-in overflow-hidden rounded-xl border border-border bg-surface text-left shadow-[0_24px_60px_-20px_rgb(0_0_0/0.25)] sm:rounded-2xl"
        >
          <span aria-hidden className="flex h-8 items-center gap-1.5 border-b border-border bg-surface-2 px-3 sm:h-10 sm:px-4">
            <span className="size-2.5 rounded-full bg-border-strong" />
            <span className="size-2.5 rounded-full bg-border-strong" />
            <span className="size-2.5 rounded-full bg-border-strong" />
          </span>
          <img src={shot.src} width={shot.width} height={shot.height} alt={alt} loading="lazy" decoding="async" className="block h-auto w-full bg-surface-2" />
          <span
            aria-hidden
            className="absolute right-3 bottom-3 inline-flex items-center gap-1.5 rounded-full bg-black/70 px-3 py-1.5 text-xs font-medium text-white opacity-0 transition-opacity group-hover:opacity-100 group-focus-visible:opacity-100"
          >
            <ZoomIn className="size-3.5" />
            {t('landing.screenshot.zoomHint')}
          </span>
        </button>
      </div>

      {/* As wide as fits both the window's width and its height (the picture is 16:10), so it never scrolls. */}
      <Modal
        open={zoomed}
        onClose={() => setZoomed(false)}
        title={t('landing.screenshot.dialogTitle')}
        className="w-[min(calc(100vw-2rem),calc((100dvh-6.5rem)*1.6))]! max-w-none!"
      >
        <div className="px-3 pb-3 sm:px-5 sm:pb-5">
          <img src={shot.src} width={shot.width} height={shot.height} alt={alt} className="block h-auto w-full rounded-lg border border-border" />
        </div>
      </Modal>
    </section>
  );
}
