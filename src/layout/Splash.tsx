import { useEffect, useState } from 'react';
import { t } from '../i18n';

export const SPLASH_DURATION_MS = 2000;
export const SPLASH_STEP_MS = 200;

/** Spec §4: progress grows by a random 5 to 14 every 200 ms until it reaches 100. */
export function nextProgress(current: number, random: () => number = Math.random): number {
  return Math.min(100, current + 5 + Math.floor(random() * 10));
}

export function Splash() {
  const [progress, setProgress] = useState(0);
  useEffect(() => {
    const id = setInterval(() => setProgress((p) => (p >= 100 ? p : nextProgress(p))), SPLASH_STEP_MS);
    return () => clearInterval(id);
  }, []);
  return (
    <div className="splash" role="status" aria-live="polite" data-testid="splash">
      <h1 id="splash-title">{t('app.name')}</h1>
      <div
        className="splash-bar"
        role="progressbar"
        aria-labelledby="splash-title"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
      >
        <div style={{ width: `${progress}%` }} />
      </div>
    </div>
  );
}
