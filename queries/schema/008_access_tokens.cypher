// Serving (design §9): bearer tokens for `graphmem serve`, kept only as their sha256.
CREATE CONSTRAINT access_token_id IF NOT EXISTS
FOR (t:AccessToken) REQUIRE t.id IS UNIQUE;
CREATE CONSTRAINT access_token_sha256 IF NOT EXISTS
FOR (t:AccessToken) REQUIRE t.sha256 IS UNIQUE;
