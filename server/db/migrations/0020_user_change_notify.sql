-- Every change to a user row (status, role, password, profile, deletion), however it is made (API, CLI, SQL),
-- notifies the portal processes at commit, so their cache of signed-in users forgets it before the next request
-- (server/lib/user-cache.ts). The payload is the user's id.
CREATE OR REPLACE FUNCTION portal_user_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('portal_user_changes', COALESCE(NEW.id, OLD.id)::text);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_changed_notify AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION portal_user_changed();
