// The indexed files of one project, with the blob each was parsed from.
MATCH (f:File {principal: $principal, project: $project})
RETURN f.path AS path, f.blob AS blob, f.error AS error
