"""graphmem in Neo4j Browser: the exploration queries, their guide, and the overlay.

The shipped queries and style sheet are read by :mod:`graphmem.store.browser_queries`
(store/ alone reads ``queries/``); ``guide`` renders the queries as a Browser guide;
``commands`` builds the Browser commands and links that set parameters and load
graphmem's files; ``grass`` parses a style sheet as Browser does; ``overlay`` builds the
archive Neo4j serves Browser from.

Neo4j serves Browser from ``HOME/web/neo4j-browser.zip`` when that file exists (it
extracts the archive and serves the directory named by its first entry at
``/browser``), otherwise from the Browser jar on its classpath. :func:`install_overlay`
builds that archive from the jar's ``browser/`` tree plus graphmem's style sheet and
a guide generated from ``queries/browser/*.cypher``, so both are served same-origin at
``/browser/graphmem/``; :func:`post_connect_command` is what Browser runs on login.

Only query *text* is handled here; the queries run in Browser (or in store/ tests).
Parameter values reach Browser as ``:param`` / ``:params`` commands, never as Cypher.
"""
