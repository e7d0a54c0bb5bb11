; graphmem definitions for JavaScript (and JSX); ecmascript.scm adds functions and calls.

(class_declaration name: (identifier) @name) @definition.class
(field_definition
  property: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @definition.method
