import { useEffect, useState } from 'preact/hooks';

/** The width under which the page takes its phone layout (styles.css uses the same). */
export const PHONE_QUERY = '(max-width: 700px)';

const media = () => window.matchMedia(PHONE_QUERY);

/** Whether the phone layout applies now; follows rotation and window resizing. */
export function usePhone(): boolean {
  const [phone, setPhone] = useState(() => media().matches);
  useEffect(() => {
    const m = media();
    const follow = () => setPhone(m.matches);
    follow();
    m.addEventListener('change', follow);
    return () => m.removeEventListener('change', follow);
  }, []);
  return phone;
}
