import '../i18n/site';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { createContext, useContext } from 'react';
import { t } from '../i18n';

/** Toasts for the light public site (spec §8/§9): top right; success 3 s green, error 4 s red. */
export const TOAST_MS = { success: 3000, error: 4000 } as const;
type Toast = { id: number; type: 'success' | 'error'; text: string };
const ToastContext = createContext<(type: Toast['type'], text: string) => void>(() => {});

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback((type: Toast['type'], text: string) => {
    setToasts((list) => [...list, { id: Date.now() + Math.random(), type, text }]);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="site-toasts" aria-live="polite">
        {toasts.map((toast) => (
          <ToastItem
            key={toast.id}
            toast={toast}
            onDone={() => setToasts((list) => list.filter((x) => x.id !== toast.id))}
          />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDone }: { toast: Toast; onDone: () => void }) {
  useEffect(() => {
    const id = setTimeout(onDone, TOAST_MS[toast.type]);
    return () => clearTimeout(id);
  }, [toast.type, onDone]);
  return (
    <div
      className={`site-toast ${toast.type}`}
      role={toast.type === 'error' ? 'alert' : 'status'}
      data-testid={`toast-${toast.type}`}
    >
      <span>{toast.text}</span>
      <button type="button" aria-label={t('site.close')} onClick={onDone}>
        ×
      </button>
    </div>
  );
}

export function useToast() {
  return useContext(ToastContext);
}
