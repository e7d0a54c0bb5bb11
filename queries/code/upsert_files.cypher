// Creates or updates File nodes with their blob, language and error.
UNWIND $files AS file
MERGE (f:File {principal: $principal, project: $project, path: file.path})
SET f.blob = file.blob, f.lang = file.lang, f.error = file.error
