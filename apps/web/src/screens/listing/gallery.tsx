import { useState } from 'preact/hooks';
import type { Schemas } from '../../api.ts';
import { useT } from '../../i18n.ts';

/** Every photo of the listing: one large at a time (`medium`, `large` on wide screens), a strip of thumbnails to pick from. */
export function Gallery({ photos, title }: { photos: Schemas['ListingPhoto'][]; title: string }) {
  const t = useT();
  const [at, setAt] = useState(0);
  if (!photos.length) return <div class="gallery-none photo-none" aria-hidden="true" />;
  const i = Math.min(at, photos.length - 1);
  const photo = photos[i]!;
  const go = (d: number) => setAt((i + d + photos.length) % photos.length);
  return (
    <section class="gallery" aria-roledescription="carousel" aria-label={title}>
      <figure>
        <img
          src={photo.medium}
          srcset={`${photo.thumb} 480w, ${photo.medium} 1600w${photo.large ? `, ${photo.large} 2560w` : ''}`}
          sizes="(max-width: 700px) 100vw, 60vw"
          alt={t('listing.photo_n', { n: i + 1, count: photos.length })}
        />
        {photos.length > 1 && (
          <>
            <button type="button" class="gallery-prev" aria-label={t('listing.previous_photo')} onClick={() => go(-1)}>
              ‹
            </button>
            <button type="button" class="gallery-next" aria-label={t('listing.next_photo')} onClick={() => go(1)}>
              ›
            </button>
            <figcaption>
              {i + 1} / {photos.length}
            </figcaption>
          </>
        )}
      </figure>
      {photos.length > 1 && (
        <ol class="gallery-thumbs">
          {photos.map((p, n) => (
            <li key={p.thumb}>
              <button
                type="button"
                aria-current={n === i}
                aria-label={t('listing.photo_n', { n: n + 1, count: photos.length })}
                onClick={() => setAt(n)}
              >
                <img src={p.thumb} alt="" loading="lazy" width={96} height={64} />
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
