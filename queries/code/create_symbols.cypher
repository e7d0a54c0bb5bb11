// Writes a batch's files (created or updated with their blob, language and error),
// creates its new symbols, and links each new symbol to its container when that is
// new too or a file: $contains holds [child, parent, file] positions in $symbols and
// $files (parent -1: the file contains it). The nodes just created are at hand, so
// these links need no index lookup; the others go through code/link_contains.
CALL () {
  UNWIND $files AS file
  MERGE (f:File {principal: $principal, project: $project, path: file.path})
  SET f.blob = file.blob, f.lang = file.lang, f.error = file.error
  RETURN collect(f) AS files
}
CALL () {
  UNWIND $symbols AS props
  CREATE (s:Symbol)
  SET s = props, s.principal = $principal, s.project = $project
  RETURN collect(s) AS created
}
UNWIND $contains AS link
WITH created[link[0]] AS child,
     CASE WHEN link[1] >= 0 THEN created[link[1]] ELSE files[link[2]] END AS container
CREATE (container)-[:CONTAINS]->(child)
