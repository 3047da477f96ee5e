/**
 * Grey shapes where cards will be, while the first ones load: the page keeps its layout (no jump
 * when they come) and shows that something is on its way. Hidden from screen readers, which hear
 * the "Loading…" status beside them.
 */
export function CardSkeletons({ count = 6, photo = true }: { count?: number; photo?: boolean }) {
  return (
    <ol class="cards skeletons" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <li key={i}>
          <div class="card skeleton">
            {photo && <div class="photo-none" />}
            <div class="card-body">
              <span class="bone wide" />
              <span class="bone" />
              <span class="bone short" />
            </div>
          </div>
        </li>
      ))}
    </ol>
  );
}
