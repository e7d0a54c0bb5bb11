// Export: the principal's own node (its properties: when it was first written).
MATCH (p:Principal {id: $principal})
RETURN p {.*} AS props
