DROP TABLE emails;
DROP TABLE invitations;
