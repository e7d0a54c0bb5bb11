// Lookups for code sync, anchoring and anchor-state resolution.
CREATE INDEX symbol_file IF NOT EXISTS FOR (n:Symbol) ON (n.principal, n.project, n.path);
CREATE INDEX symbol_key_any_project IF NOT EXISTS FOR (n:Symbol) ON (n.key);
CREATE INDEX symbol_hash IF NOT EXISTS FOR (n:Symbol) ON (n.hash);
CREATE INDEX symbol_name IF NOT EXISTS FOR (n:Symbol) ON (n.name);
CREATE INDEX file_project IF NOT EXISTS FOR (n:File) ON (n.principal, n.project);
CREATE INDEX belief_anchor_key IF NOT EXISTS FOR (n:Belief) ON (n.anchor_key);
