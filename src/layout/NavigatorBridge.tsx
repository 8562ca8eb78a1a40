import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { setNavigator } from '../../providers/http-client';

/** Lets the http client send the user to /login through the router (no full reload) after a failed refresh. */
export function NavigatorBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    setNavigator((to) => navigate(to, { replace: true }));
    return () => setNavigator(null);
  }, [navigate]);
  return null;
}
