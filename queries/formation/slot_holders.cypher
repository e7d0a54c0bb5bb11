// Live beliefs holding a (subject, type) slot: what the resolve gate weighs a new
// candidate against (design §6: one live belief per single-valued slot).
UNWIND $slots AS slot
MATCH (b:Belief {principal: $principal, subject: slot.subject})
USING INDEX SEEK b:Belief(principal, subject)
WHERE b.type = slot.type AND b.superseded_at IS NULL AND b.state <> 'retired'
RETURN slot.subject AS subject, slot.type AS type, b.id AS id, b.authority AS authority
ORDER BY b.seq DESC, b.id
