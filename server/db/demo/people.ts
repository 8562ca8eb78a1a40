/** Names and streets for the demo customers (invented; any likeness is chance). */
export const FIRST_NAMES = [
  'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Elijah', 'Sophia', 'Lucas', 'Mia', 'Mateo', 'Amelia', 'Levi', 'Harper', 'Ethan',
  'Evelyn', 'James', 'Aria', 'Benjamin', 'Chloe', 'Henry', 'Nora', 'Samuel', 'Layla', 'Daniel', 'Zoe', 'Owen', 'Hannah',
  'Jack', 'Priya', 'Ravi', 'Fatima', 'Omar', 'Mei', 'Kenji', 'Lucia', 'Diego', 'Ingrid', 'Lars', 'Amara', 'Kofi',
];

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Lopez', 'Wilson', 'Anderson', 'Thomas', 'Moore',
  'Jackson', 'Martin', 'Lee', 'Thompson', 'White', 'Harris', 'Clark', 'Lewis', 'Walker', 'Young', 'Allen', 'King', 'Wright',
  'Scott', 'Nguyen', 'Patel', 'Kim', 'Okafor', 'Haddad', 'Novak', 'Rossi', 'Schmidt', 'Tanaka', 'Silva', 'Larsen', 'Mensah',
];

export const STREETS = [
  'Maple Avenue', 'Oak Street', 'Cedar Lane', 'Pine Road', 'Elm Street', 'Birch Close', 'Willow Way', 'Lakeview Drive',
  'Hillcrest Road', 'River Street', 'Station Road', 'Meadow Lane', 'Orchard Street', 'Park Avenue', 'Sunset Boulevard',
];
