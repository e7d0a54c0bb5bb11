// How many of the principal's beliefs and episodes have no stored vectors of $model.
RETURN
  COUNT {
    MATCH (n:Belief {principal: $principal})
    WHERE NOT EXISTS { (n)-[:EMBEDDED_AS]->(:Embedding {model: $model}) }
  } AS beliefs,
  COUNT {
    MATCH (n:Episode {principal: $principal})
    WHERE NOT EXISTS { (n)-[:EMBEDDED_AS]->(:Embedding {model: $model}) }
  } AS episodes
