; graphmem definitions for Python.
; Captures: @definition.<kind> on the defining node, @name on its name,
; @reference.call on a call with @name the called name.
; A function directly inside a class becomes a method; __init__ a constructor.

(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function
(type_alias_statement left: (type (identifier) @name)) @definition.type

(call function: (identifier) @name) @reference.call
(call function: (attribute attribute: (identifier) @name)) @reference.call
