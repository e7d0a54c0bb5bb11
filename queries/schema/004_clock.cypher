// The one counter every write draws its seq from.
MERGE (c:Clock {id: 'memory'}) ON CREATE SET c.seq = 0;
